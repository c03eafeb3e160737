// E1.31 (sACN, ANSI E1.31-2016) on UDP 5568: DMX512 data in a 126-byte header, offsets here from
// the packet's start, big-endian:
//   0-15    root layer: preamble 0x0010, postamble 0, the identifier "ASC-E1.17\0\0\0"
//   16-17   flags and length; 18-21 vector 4 (E1.31 data); 22-37 the sender's CID
//   38-39   framing layer: flags and length; 40-43 vector 2 (data packet); 44-107 source name
//   108     priority 0-200; 109-110 sync address; 111 sequence; 112 options (bit 7 preview,
//           bit 6 stream terminated); 113-114 universe
//   115-116 DMP layer: flags and length; 117 vector 2; 118 address and data type 0xa1;
//   119-120 first address 0; 121-122 increment 1; 123-124 property count (1 + slots)
//   125     DMX start code (0: dimmer data); 126- the slots
// One universe (1), from DMX address 1, 3 channels a panel. A source is its CID: while one owns the
// panels a lower priority is dropped, and so is a packet whose sequence is not ahead of the last
// (less than 20 behind, the standard's window). Preview data is not shown; stream terminated lets go.
import { frame, FRAME_BYTES, showFrame, streamLetGo } from "./show";
import { live, P_E131 } from "./live";

const HEADER: u32 = 126;
const UNIVERSE: u32 = 1;
const ID = memory.data<u8>([0x00, 0x10, 0x00, 0x00, 0x41, 0x53, 0x43, 0x2d, 0x45, 0x31, 0x2e, 0x31, 0x37, 0, 0, 0]);
const PREVIEW: u32 = 0x80;
const TERMINATED: u32 = 0x40;

/** The source that owns the panels: its CID, then its priority and last sequence (static memory:
 * a wasm global costs WAMR about 52 B of heap). */
const cid = memory.data(18, 4);
const PRIORITY = 16;
const SEQUENCE = 17;

/** An E1.31 datagram of `len` bytes at `p` from `source` (IPv4 as a u32). */
export function e131Receive(p: usize, len: u32, source: u32, now: u32): void {
  if (len < HEADER || memory.compare(p, ID, 16) != 0) return;
  if (bswap<u32>(load<u32>(p, 18)) != 4 || bswap<u32>(load<u32>(p, 40)) != 2) return;
  if (load<u8>(p, 117) != 2 || load<u8>(p, 118) != 0xa1 || load<u8>(p, 125) != 0) return;
  const slots = <u32>bswap<u16>(load<u16>(p, 123)) - 1; // (0 - 1 wraps: refused below)
  if (slots > 512 || slots > len - HEADER) return;
  if (<u32>bswap<u16>(load<u16>(p, 113)) != UNIVERSE) return;
  const options = <u32>load<u8>(p, 112);
  if (options & PREVIEW) return;
  const prio = <u32>load<u8>(p, 108);
  const seq = <u32>load<u8>(p, 111);
  const owner = live.protocol == P_E131;
  const same = owner && memory.compare(p + 22, cid, 16) == 0;
  if (owner && !same && prio < <u32>load<u8>(cid, PRIORITY)) return; // a lower priority waits for the owner
  const ahead = <i8>(seq - <u32>load<u8>(cid, SEQUENCE));
  if (same && ahead <= 0 && ahead > -20) return; // stale or a duplicate
  if (options & TERMINATED) {
    if (same) streamLetGo(now);
    return;
  }
  memory.copy(cid, p + 22, 16);
  store<u8>(cid, <u8>prio, PRIORITY);
  store<u8>(cid, <u8>seq, SEQUENCE);
  memory.copy(frame, p + HEADER, min(slots, FRAME_BYTES));
  showFrame(P_E131, source, now);
}
