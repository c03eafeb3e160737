// How a pulse table entry combines with the record of the broadcast prepare it serves, shared by
// the panel (assembly/panel/table.ts) and the controller's unicast fallback (pulse-table.ts), so
// both give the same record. docs/bus-protocol.md, "Pulse table".
import { K_RUNNER } from "../generated/kinds";

/** A runner pulse's kind byte with loop (0x10) and window (0x80), reap on done (0x40) masked off. */
const LOOPING_WINDOW: u8 = K_RUNNER | 0x90;

/**
 * Adds the words of `entry` selected by `mask` (bits 1-9) to those of the 20-byte record at `rec`,
 * in 32 bits. A sum above 65535 is the window centre (word 2) of a looping windowed runner pulse,
 * taken modulo its duration (the window wraps round the cycle anyway), or else it cannot be
 * prepared (a one-shot pulse that would start after the longest delay): false.
 */
export function sumWords(rec: usize, entry: usize, mask: u32): bool {
  // downwards: the duration (word 6) is final before the centre (word 2) needs it
  for (let w: u32 = 9; w >= 1; w--) {
    if ((mask & (1 << w)) == 0) continue;
    const o = rec + (w << 1);
    let v = <u32>load<u16>(o) + <u32>load<u16>(entry + (w << 1));
    if (v > 0xffff) {
      const duration = <u32>load<u16>(rec, 12);
      if (w != 2 || (load<u8>(rec, 2) & 0xbf) != LOOPING_WINDOW || duration == 0) return false;
      v %= duration;
    }
    store<u16>(o, <u16>v);
  }
  return true;
}
