// The streaming tokenizer (json/stream.ts) over memory: the walk, strings decoded whole across
// windows, numbers, and the reader's refusal reasons and offsets.
import {
  openMemory,
  value,
  member,
  element,
  skipValue,
  finish,
  broken,
  textIs,
  textChars,
  textBytes,
  textControl,
  numberValue,
  numberInteger,
  intIn,
  duplicateKey,
} from "../json/stream";
import { errorOffset, errorReason, J_OBJECT, J_ARRAY, J_STRING, J_NUMBER, J_TRUE } from "../json/reader";

let doc: ArrayBuffer = new ArrayBuffer(0);
function open(s: string): void {
  doc = String.UTF8.encode(s);
  openMemory(changetype<usize>(doc), <u32>doc.byteLength);
}

/** Reads a whole document; its refusal reason and offset, or "ok". */
function scan(s: string): string {
  open(s);
  skipValue();
  finish();
  return broken ? errorReason() + " at " + errorOffset.toString() : "ok";
}

describe("json/stream", () => {
  it("walks objects and arrays", () => {
    open(' { "a" : [1, -2.5e1, true], "b": {"c": "d"} } ');
    expect<u32>(value()).toBe(J_OBJECT);
    expect<bool>(member()).toBe(true);
    expect<bool>(textIs("a")).toBe(true);
    expect<u32>(value()).toBe(J_ARRAY);
    expect<bool>(element()).toBe(true);
    expect<u32>(value()).toBe(J_NUMBER);
    expect<i32>(intIn(0, 9, -1)).toBe(1);
    expect<bool>(element()).toBe(true);
    expect<u32>(value()).toBe(J_NUMBER);
    expect<bool>(numberInteger).toBe(false);
    expect<f64>(numberValue).toBe(-25);
    expect<bool>(element()).toBe(true);
    expect<u32>(value()).toBe(J_TRUE);
    expect<bool>(element()).toBe(false);
    expect<bool>(member()).toBe(true);
    expect<bool>(textIs("b")).toBe(true);
    skipValue();
    expect<bool>(member()).toBe(false);
    finish();
    expect<bool>(broken).toBe(false);
  });

  it("decodes strings longer than a window, escapes and UTF-8", () => {
    open('"' + "x".repeat(600) + '\\u00e9\\ud83d\\ude00\\n\u00e9"');
    expect<u32>(value()).toBe(J_STRING);
    expect<u32>(textChars).toBe(604);
    expect<u32>(textBytes).toBe(600 + 2 + 4 + 1 + 2);
    expect<bool>(textControl).toBe(true);
  });

  it("refuses with the reader's reasons and offsets", () => {
    expect<string>(scan('{"a":1}')).toBe("ok");
    expect<string>(scan("")).toBe("unexpected end of the document at 0");
    expect<string>(scan('{"a":1')).toBe("unexpected end of the document at 6");
    expect<string>(scan('{"a" 1}')).toBe("expected ':' at 5");
    expect<string>(scan('{"a":1,}')).toBe("expected a member name in double quotes at 7");
    expect<string>(scan('{"a":1 "b"}')).toBe("expected ',' or the closing bracket at 7");
    expect<string>(scan("[01]")).toBe("expected ',' or the closing bracket at 2");
    expect<string>(scan("[1.]")).toBe("invalid number at 3");
    expect<string>(scan('["\\x"]')).toBe("invalid escape at 2");
    expect<string>(scan('["\\ud800"]')).toBe("invalid escape at 2");
    expect<string>(scan('["a\nb"]')).toBe("control character in a string (escape it) at 3");
    expect<string>(scan("[tru]")).toBe("expected a value at 4");
    expect<string>(scan("{} x")).toBe("text after the document at 3");
    expect<string>(scan("[".repeat(17) + "]".repeat(17))).toBe("nested deeper than 16 at 16");
    expect<string>(scan("[".repeat(16) + "]".repeat(16))).toBe("ok");
  });

  it("reads numbers as RFC 8259 writes them", () => {
    expect<string>(scan("[0,-0,1.5,-0.5e+1,1E5,1e-5,0.0e0,123456789012]")).toBe("ok");
    expect<string>(scan("[-]")).toBe("invalid number at 2");
    expect<string>(scan("[-a]")).toBe("invalid number at 2");
    expect<string>(scan("[1e]")).toBe("invalid number at 3");
    expect<string>(scan("[1e+]")).toBe("invalid number at 4");
    expect<string>(scan("[1.5e]")).toBe("invalid number at 5");
    expect<string>(scan("[1ee]")).toBe("invalid number at 3");
    expect<string>(scan("[.5]")).toBe("expected a value at 1");
    expect<string>(scan("[+1]")).toBe("expected a value at 1");
    expect<string>(scan("[-01]")).toBe("expected ',' or the closing bracket at 3");
    expect<string>(scan("[12.34.5]")).toBe("expected ',' or the closing bracket at 6");
    expect<string>(scan("-")).toBe("unexpected end of the document at 1");
    expect<string>(scan("1.")).toBe("unexpected end of the document at 2");
    open("[-0.5e+1, 123456789012, 7.25]");
    value();
    element();
    expect<u32>(value()).toBe(J_NUMBER);
    expect<f64>(numberValue).toBe(-5);
    expect<bool>(numberInteger).toBe(false);
    element();
    value();
    expect<f64>(numberValue).toBe(123456789012);
    expect<bool>(numberInteger).toBe(true);
    element();
    value();
    expect<f64>(numberValue).toBe(7.25);
  });

  it("refuses invalid UTF-8 at its first byte", () => {
    const bad = new ArrayBuffer(5);
    store<u8>(changetype<usize>(bad), 0x22);
    store<u8>(changetype<usize>(bad), 0x61, 1);
    store<u8>(changetype<usize>(bad), 0xc3, 2);
    store<u8>(changetype<usize>(bad), 0x28, 3);
    store<u8>(changetype<usize>(bad), 0x22, 4);
    doc = bad;
    openMemory(changetype<usize>(doc), 5);
    skipValue();
    expect<string>(errorReason() + " at " + errorOffset.toString()).toBe("invalid UTF-8 at 2");
  });

  it("refuses a duplicate key at its opening quote", () => {
    open(' {"a":1,  "a":2}');
    value();
    member();
    skipValue();
    member();
    duplicateKey();
    expect<bool>(broken).toBe(true);
    expect<string>(errorReason() + " at " + errorOffset.toString()).toBe("duplicate member name at 10");
  });
});
