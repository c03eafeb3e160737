// The JSON writer (json/writer.ts): strings go out as valid UTF-8 whatever the UTF-16 they come in,
// a surrogate pair as one 4-byte character, a surrogate outside a pair as U+FFFD (issue 18: never
// a split character on the wire). Written to a capture, which collects the bytes.
import { beginCapture, endCapture, str } from "../json/writer";

function written(s: string): string {
  beginCapture();
  str(s);
  const bytes = endCapture();
  let hex = "";
  for (let i = 0; i < bytes.length; i++) hex += (i > 0 ? " " : "") + bytes[i].toString(16);
  return hex;
}

describe("json writer: strings as UTF-8", () => {
  it("writes a surrogate pair as one 4-byte character", () => {
    expect<string>(written("a\u{1F600}")).toBe("22 61 f0 9f 98 80 22");
  });
  it("writes a high surrogate at the end, or before anything but a low one, as U+FFFD", () => {
    expect<string>(written("a" + String.fromCharCode(0xd83d))).toBe("22 61 ef bf bd 22");
    expect<string>(written(String.fromCharCode(0xd83d) + "z")).toBe("22 ef bf bd 7a 22");
  });
  it("writes a low surrogate alone as U+FFFD", () => {
    expect<string>(written(String.fromCharCode(0xde00) + "z")).toBe("22 ef bf bd 7a 22");
  });
  it("escapes quotes and control characters", () => {
    expect<string>(written('"\n')).toBe("22 5c 22 5c 6e 22");
  });
});
