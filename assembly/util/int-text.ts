// Integers as decimal text for messages: the core's one formatter, in place of the standard library's
// I32#toString/U32#toString (their radix check, its message and the 36-digit alphabet, ~460 B of the
// image). Constants in messages are folded at build time (scripts/messages-transform.mjs).
import { utf8Decode } from "./utf8";

/** Room for the longest: "-2147483648" or "4294967295". */
const DIGITS = memory.data(12);

/** `n` in decimal, "-" before a negative one (what `n.toString()` gives for an i32 or u32). */
export function intText(n: i64): string {
  let u = n < 0 ? -n : n;
  let p = DIGITS + 12;
  do {
    store<u8>(--p, 0x30 + <u32>(u % 10));
    u /= 10;
  } while (u != 0);
  if (n < 0) store<u8>(--p, 0x2d);
  return utf8Decode(p, DIGITS + 12 - p);
}
