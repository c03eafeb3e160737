// The request validators (json/validate.ts): parseHexColorAt, "#RRGGBB" in either case, and the
// checks of the value just read that produce the 422 messages "<path>: <rule>".
import { parseHexColorAt, expectHexColor, expectInt, expectKind, resetErrors, validationError } from "../json/validate";
import { openMemory, value } from "../json/stream";
import { J_OBJECT, J_TRUE } from "../json/reader";

let source = new ArrayBuffer(0);

function hex(text: string): i32 {
  source = String.UTF8.encode(text);
  return parseHexColorAt(changetype<usize>(source), source.byteLength);
}

function hexBytes(bytes: u8[]): i32 {
  source = new ArrayBuffer(bytes.length);
  for (let i = 0; i < bytes.length; i++) store<u8>(changetype<usize>(source) + i, bytes[i]);
  return parseHexColorAt(changetype<usize>(source), source.byteLength);
}

/** Reads the first value of a document (kept alive in `source`) and clears the recorded error. */
function open(text: string): void {
  source = String.UTF8.encode(text);
  openMemory(changetype<usize>(source), source.byteLength);
  value();
  resetErrors();
}

afterEach(() => {
  resetErrors();
});

describe("parseHexColorAt", () => {
  it("parses #RRGGBB to 0xRRGGBB", () => {
    expect<i32>(hex("#FF8000")).toBe(0xff8000);
    expect<i32>(hex("#123456")).toBe(0x123456);
    expect<i32>(hex("#000000")).toBe(0);
    expect<i32>(hex("#FFFFFF")).toBe(0xffffff);
  });

  it("accepts either case", () => {
    expect<i32>(hex("#ff8000")).toBe(0xff8000);
    expect<i32>(hex("#aBcDeF")).toBe(0xabcdef);
    expect<i32>(hex("#ABCDEF")).toBe(0xabcdef);
    expect<i32>(hex("#09afAF")).toBe(0x09afaf);
  });

  it("rejects other lengths and a missing #", () => {
    expect<i32>(hex("")).toBe(-1);
    expect<i32>(hex("#")).toBe(-1);
    expect<i32>(hex("#FFF")).toBe(-1);
    expect<i32>(hex("#FF800")).toBe(-1);
    expect<i32>(hex("#FF80000")).toBe(-1);
    expect<i32>(hex("FF8000")).toBe(-1);
    expect<i32>(hex("0FF8000")).toBe(-1);
    expect<i32>(hex("#FF8000 ")).toBe(-1);
  });

  it("rejects characters that are not hex digits", () => {
    expect<i32>(hex("#GG0000")).toBe(-1);
    expect<i32>(hex("#gg0000")).toBe(-1);
    expect<i32>(hex("#FF 000")).toBe(-1);
    expect<i32>(hex("#-12345")).toBe(-1);
    expect<i32>(hex("#0x1234")).toBe(-1);
    expect<i32>(hex("##12345")).toBe(-1);
    expect<i32>(hex("#12345:")).toBe(-1); // one past '9'
    expect<i32>(hex("#12345@")).toBe(-1); // one before 'A'
    expect<i32>(hex("#12345`")).toBe(-1); // one before 'a'
  });

  it("rejects control and non-ASCII bytes, including those that look like digits after case folding", () => {
    expect<i32>(hexBytes([0x23, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10])).toBe(-1);
    expect<i32>(hexBytes([0x23, 0x31, 0x32, 0x33, 0x34, 0x35, 0x19])).toBe(-1);
    expect<i32>(hexBytes([0x23, 0x31, 0x32, 0x33, 0x34, 0x35, 0x00])).toBe(-1);
    expect<i32>(hexBytes([0x23, 0x31, 0x32, 0x33, 0x34, 0x35, 0xc1])).toBe(-1);
    expect<i32>(hexBytes([0x23, 0x31, 0x32, 0x33, 0x34, 0x35, 0xe1])).toBe(-1);
  });
});

describe("expectHexColor", () => {
  it("returns the colour of a string just read", () => {
    open('"#00ff7F"');
    expect<i32>(expectHexColor("color")).toBe(0x00ff7f);
    expect<string>(validationError()).toBe("");
  });

  it("records the failure for a bad string or another kind", () => {
    open('"#00ff7"');
    expect<i32>(expectHexColor("color")).toBe(-1);
    expect<string>(validationError()).toBe('color: must be a colour "#RRGGBB"');
    open("16711680");
    expect<i32>(expectHexColor("baseColors[1]")).toBe(-1);
    expect<string>(validationError()).toBe('baseColors[1]: must be a colour "#RRGGBB"');
  });
});

describe("validation messages", () => {
  it("keeps the first failure", () => {
    open("300");
    expect<bool>(expectInt("b", 0, 255)).toBe(false);
    expect<bool>(expectKind(J_TRUE, "x", "a boolean")).toBe(false);
    expect<string>(validationError()).toBe("b: must be an integer 0-255");
  });

  it("accepts integers in range only", () => {
    const ok = ["0", "255", "-0"];
    for (let i = 0; i < ok.length; i++) {
      open(ok[i]);
      expect<bool>(expectInt("v", 0, 255)).toBe(true);
    }
    expect<string>(validationError()).toBe("");
    const bad = ["-1", "256", "1.5", "1e2", '"7"', "99999999999999999"];
    for (let i = 0; i < bad.length; i++) {
      open(bad[i]);
      expect<bool>(expectInt("v", 0, 255)).toBe(false);
    }
  });

  it("names wrong kinds", () => {
    open("[1]");
    expect<bool>(expectKind(J_OBJECT, "", "an object")).toBe(false);
    expect<string>(validationError()).toBe("$: must be an object, not an array");
    open('"yes"');
    expect<bool>(expectKind(J_TRUE, "isOn", "a boolean")).toBe(false);
    expect<string>(validationError()).toBe("isOn: must be a boolean, not a string");
  });
});
