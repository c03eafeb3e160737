// Integers as decimal text for messages: the core's one formatter, in place of the standard library's
// I32#toString/U32#toString (a radix check, its message and the 36-digit alphabet: ~420 B of the
// image). Constants in messages are folded into their texts at build time instead
// (scripts/messages-transform.mjs).
import { utf8Decode } from "./utf8";

/** Room for the longest: "-2147483648". */
const DIGITS = memory.data(11);

/** `n` in decimal, "-" before a negative one: what `n.toString()` gives (a u32 argument is below 2^31:
 * counts, ports, milliseconds, source positions). */
export function intText(n: i32): string {
  let u = <u32>(n < 0 ? -n : n);
  let p = DIGITS + 11;
  do {
    store<u8>(--p, 0x30 + (u % 10));
    u /= 10;
  } while (u != 0);
  if (n < 0) store<u8>(--p, 0x2d);
  return utf8Decode(p, DIGITS + 11 - p);
}
