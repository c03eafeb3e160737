// Bytes for the host, built in one block of the export's memory: the packed records of
// host_mqtt_connect and host_mdns_advertise (u16 little-endian numbers, strings as u16 length + UTF-8
// bytes: docs/host-abi.md), and the topics the core subscribes and compares. Text is encoded
// straight into the block (no UTF-8 copy per string, no array grown a byte at a time).
import { Names, nameEntry } from "../util/names";

export class Packer {
  start: usize;
  at: usize;
  /** The length field of the string being packed (0: none, the bytes are a topic). */
  last: usize = 0;

  /** `cap`: the most bytes packed (3 a UTF-16 unit of text is enough for any text). */
  constructor(cap: i32) {
    this.start = this.at = heap.alloc(<usize>cap);
  }

  get length(): u32 {
    return <u32>(this.at - this.start);
  }

  u16(n: i32): Packer {
    store<u16>(this.at, <u16>n);
    this.at += 2;
    return this;
  }

  u8(n: i32): Packer {
    store<u8>(this.at++, <u8>n);
    return this;
  }

  /** Starts a string (its length follows what text() and name() add), with `s` in it. */
  str(s: string): Packer {
    this.last = this.at;
    return this.u16(0).text(s);
  }

  /** Adds `s` as UTF-8 (to the string being packed). */
  text(s: string): Packer {
    return this.added(<usize>String.UTF8.encodeUnsafe(changetype<usize>(s), s.length, this.at));
  }

  /** Adds name `i` of `list` (util/names.ts). */
  name(list: Names, i: i32): Packer {
    const e = nameEntry(list, i);
    const n = <usize>load<u8>(e);
    memory.copy(this.at, e + 1, n);
    return this.added(n);
  }

  private added(n: usize): Packer {
    this.at += n;
    const l = this.last;
    if (l) store<u16>(l, load<u16>(l) + <u16>n);
    return this;
  }

  /** Whether the bytes [p, p + n) start with the packed ones. */
  prefixes(p: usize, n: u32): bool {
    const k = this.length;
    if (k > n) return false;
    for (let i: u32 = 0; i < k; i++) if (load<u8>(this.start + i) != load<u8>(p + i)) return false;
    return true;
  }
}
