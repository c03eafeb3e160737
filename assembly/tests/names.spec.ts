// Name lists (util/names.ts), packed at run time here (as-pect runs without the build's transform,
// whose packing tests/names.test.ts holds to the same bytes).
import { names, nameCount, nameIndex, nameLength, nameBytes, nameString, nameList } from "../util/names";

const KEYS = names("schemaVersion name stops é");

function bytesOf(s: string): usize {
  return changetype<usize>(String.UTF8.encode(s));
}

describe("names", () => {
  it("packs each name as its byte length then its UTF-8 bytes, ended by a 0", () => {
    expect<u8>(load<u8>(KEYS)).toBe(13);
    expect<u8>(load<u8>(KEYS + 14)).toBe(4);
    expect<u8>(load<u8>(KEYS + 19)).toBe(5);
    expect<u8>(load<u8>(KEYS + 25)).toBe(2); // "é" is two bytes
    expect<u8>(load<u8>(KEYS + 28)).toBe(0);
    expect<i32>(nameCount(KEYS)).toBe(4);
  });

  it("finds a name by its bytes, and nothing for a prefix, a longer text or another case", () => {
    expect<i32>(nameIndex(KEYS, bytesOf("stops"), 5)).toBe(2);
    expect<i32>(nameIndex(KEYS, bytesOf("é"), 2)).toBe(3);
    expect<i32>(nameIndex(KEYS, bytesOf("schemaVersion"), 13)).toBe(0);
    expect<i32>(nameIndex(KEYS, bytesOf("stop"), 4)).toBe(-1);
    expect<i32>(nameIndex(KEYS, bytesOf("stopss"), 6)).toBe(-1);
    expect<i32>(nameIndex(KEYS, bytesOf("Name"), 4)).toBe(-1);
    expect<i32>(nameIndex(KEYS, bytesOf(""), 0)).toBe(-1);
  });

  it("gives a name's bytes, its string, and the list for a message", () => {
    expect<u32>(nameLength(KEYS, 1)).toBe(4);
    expect<u8>(load<u8>(nameBytes(KEYS, 1))).toBe(0x6e); // n
    expect<u32>(nameLength(KEYS, 9)).toBe(0);
    expect<string>(nameString(KEYS, 3)).toBe("é");
    expect<string>(nameList(KEYS)).toBe("schemaVersion, name, stops, é");
    expect<string>(nameList(KEYS, 2)).toBe("schemaVersion, name");
  });
});
