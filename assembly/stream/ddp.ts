// DDP, the Distributed Display Protocol (3waylabs.com/ddp), on UDP 4048. A datagram is a 10-byte
// header, 14 with a timecode, then its data:
//   0     flags: bits 7-6 version (01), bit 4 timecode, bit 3 storage, bit 2 reply, bit 1 query,
//         bit 0 push
//   1     sequence (low 4 bits; 0: not used)
//   2     data type: bits 5-3 the type (1 RGB), bits 2-0 the element size (3: 8 bits); 0 undefined
//   3     destination id (1: the default output device, the display)
//   4-7   offset of the data in the display's buffer, in bytes, big-endian
//   8-9   length of the data, in bytes, big-endian
// Data without push is held (a frame in fragments); the push shows the frame. Queries, replies and
// other types or destinations are not for this display and change nothing.
import { frame, FRAME_BYTES, showFrame } from "./show";
import { P_DDP } from "./live";

const HEADER: u32 = 10;
const TIMECODE: u32 = 0x10;
const VERSION_MASK: u32 = 0xc0;
const VERSION_1: u32 = 0x40;
const PUSH: u32 = 0x01;
const QUERY_OR_REPLY: u32 = 0x06;
const TYPE_RGB8: u32 = 0x0b; // type 1 (RGB) << 3 | size 3 (8 bits)
const TYPE_UNDEFINED: u32 = 0; // what many senders put: the display's own, RGB
const ID_DISPLAY: u32 = 1;

/** A DDP datagram of `len` bytes at `p` from `source` (IPv4 as a u32). */
export function ddpReceive(p: usize, len: u32, source: u32, now: u32): void {
  if (len < HEADER) return;
  const flags = <u32>load<u8>(p);
  const head: u32 = flags & TIMECODE ? HEADER + 4 : HEADER;
  if ((flags & VERSION_MASK) != VERSION_1 || (flags & QUERY_OR_REPLY) != 0 || len < head) return;
  const type = <u32>load<u8>(p, 2);
  if (type != TYPE_RGB8 && type != TYPE_UNDEFINED) return;
  if (<u32>load<u8>(p, 3) != ID_DISPLAY) return;
  const offset = bswap<u32>(load<u32>(p, 4));
  const dataLen = <u32>bswap<u16>(load<u16>(p, 8));
  if (dataLen > len - head) return; // the header promises more than came
  // bytes past the panels are dropped (a sender configured for more pixels than there are panels)
  if (offset < FRAME_BYTES) memory.copy(frame + offset, p + head, min(dataLen, FRAME_BYTES - offset));
  if (flags & PUSH) showFrame(P_DDP, source, now);
}
