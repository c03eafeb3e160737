// The core's decimal formatter (util/int-text.ts) against the standard library's I32#toString it
// replaced in messages.
import { intText } from "../util/int-text";

describe("intText", () => {
  it("writes what toString writes", () => {
    const values: i32[] = [0, 1, 9, 10, 99, 100, 101, 1024, 65535, 123456789, i32.MAX_VALUE, -1, -10, -99, -4096];
    for (let i = 0; i < values.length; i++) expect<string>(intText(values[i])).toBe(values[i].toString());
    expect<string>(intText(i32.MIN_VALUE)).toBe("-2147483648");
  });
  it("makes a new string each call", () => {
    const a = intText(12);
    const b = intText(345);
    expect<string>(a + "/" + b).toBe("12/345");
  });
});
