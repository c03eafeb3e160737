// Bytes for the host, built in one block of the export's memory: the packed records of
// host_mqtt_connect and host_mdns_advertise (u16 little-endian numbers, strings as u16 length + UTF-8
// bytes: docs/host-abi.md), and the topics the core subscribes and compares. Text is encoded
// straight into the block (no UTF-8 copy per string, no array grown a byte at a time).
import { Names, nameEntry } from "../util/names";
import { utf8Encode } from "../util/utf8";

export class Packer {
  start: usize;
  /** The bytes packed so far. */
  length: u32 = 0;
  /** The length field of the string being packed (0: none, the bytes are a topic). */
  last: usize = 0;

  /** `cap`: the most bytes packed (3 a UTF-16 unit of text is enough for any text). */
  constructor(cap: i32) {
    this.start = heap.alloc(<usize>cap);
  }

  u16(n: i32): Packer {
    store<u16>(this.start + this.length, <u16>n);
    this.length += 2;
    return this;
  }

  u8(n: i32): Packer {
    store<u8>(this.start + this.length++, <u8>n);
    return this;
  }

  /** Starts a string (its length follows what text() and name() add), with `s` in it. */
  str(s: string): Packer {
    this.last = this.start + this.length;
    return this.u16(0).text(s);
  }

  /** Adds `s` as UTF-8 (to the string being packed). */
  @inline
  text(s: string): Packer {
    return this.add(changetype<usize>(s), -s.length);
  }

  /** Adds name `i` of `list` (util/names.ts). */
  name(list: Names, i: i32): Packer {
    const e = nameEntry(list, i);
    return this.add(e + 1, load<u8>(e));
  }

  /** Adds `n` bytes at `p`, or for a negative `n` the UTF-16 text of -n units at `p` as UTF-8. */
  private add(p: usize, n: i32): Packer {
    const at = this.start + this.length;
    let k = <u32>n;
    if (n < 0) k = <u32>utf8Encode(p, -n, at);
    else memory.copy(at, p, k);
    this.length += k;
    const l = this.last;
    if (l) store<u16>(l, load<u16>(l) + <u16>k);
    return this;
  }
}
