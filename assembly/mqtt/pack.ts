// Bytes for the host, written by the JSON writer into a capture (json/writer.ts beginCapture): the
// packed records of host_mqtt_connect and host_mdns_advertise (u16 little-endian numbers, strings as
// u16 length + UTF-8 bytes: docs/host-abi.md), and the topics the core subscribes and compares.
// Text goes out as the writer writes every topic and payload (a lone surrogate as U+FFFD, which
// MQTT requires: docs/decisions.md), so a string's length is known before its bytes: no length is
// patched after a flush.
import * as w from "../json/writer";
import { utf8Encode } from "../util/utf8";
import { Names, nameEntry } from "../util/names";

/** A u16 of a record, little-endian. */
export function packU16(n: u32): void {
  w.byte(n);
  w.byte(n >> 8);
}

/** A string of a record: its length, then the name at entry `e` (util/names.ts nameEntry, or NO_NAME)
 * and `s` as UTF-8 (U+FFFD and a lone surrogate's WTF-8 are both 3 bytes). No default argument: it
 * would cost a trampoline. */
export function packString(s: string, e: usize): void {
  const n = <usize>load<u8>(e);
  packU16(<u32>(n + utf8Encode(changetype<usize>(s), s.length, 0)));
  for (let k: usize = 1; k <= n; k++) w.byte(load<u8>(e + k));
  w.raw(s);
}

/** An empty name entry (its length byte). */
export const NO_NAME = memory.data(1);

/** Writes name `i` of `list` as it is (a topic level, a payload word). */
export function putName(list: Names, i: i32): void {
  const e = nameEntry(list, i);
  const n = <usize>load<u8>(e);
  for (let k: usize = 1; k <= n; k++) w.byte(load<u8>(e + k));
}
