// Who owns the panels: a live stream (DDP, E1.31) or the controller's own look. While a stream does,
// the look's packets (colours, animations, palettes) are held back at the bus (bus/send.ts), so a
// scene keeps its clock without being shown; power and brightness still go out. A leaf: the bus,
// the power path and the state answer read it without importing the stream's logic.
import { changed } from "../state/app";
import { T_COLOR, T_ANIM_PREPARE, T_ANIM_START, T_ANIM_CONTROL, T_ANIM_PARAMS, T_PALETTE } from "../bus/protocol";
import { T_BASE_COLORS, T_BACKGROUND, T_PULSE_TABLE } from "../bus/protocol";

export const P_NONE: u8 = 0;
export const P_DDP: u8 = 1;
export const P_E131: u8 = 2;

/** The live stream (static memory: a wasm global costs WAMR about 52 B of heap). */
@final
@unmanaged
export class Live {
  protocol: u8; // P_NONE: no stream owns the panels
  sending: bool; // the stream's own packets are going out (they pass the hold)
  sent: bool; // a frame of this stream has gone out (stream/show.ts)
  source: u32; // the sender's IPv4 address, a.b.c.d as a << 24 | b << 16 | c << 8 | d
  lastMs: u32; // when its last frame was shown
}
export const live = changetype<Live>(memory.data(offsetof<Live>(), 4));

/** A stream frame from `source` is being shown: the stream owns the panels (APP_STATE on a change). */
export function streamOwn(protocol: u8, source: u32, now: u32): void {
  if (live.protocol != protocol || live.source != source) {
    live.protocol = protocol;
    live.source = source;
    changed();
  }
  live.lastMs = now;
}

/** The stream no longer owns the panels (its timeout, or power off). */
export function streamDrop(): void {
  if (live.protocol == P_NONE) return;
  live.protocol = P_NONE;
  changed();
}

// The look's packet types held back while a stream owns the panels (power and brightness are not).
const HELD: u32 =
  (1 << T_COLOR) |
  (1 << T_ANIM_PREPARE) |
  (1 << T_ANIM_START) |
  (1 << T_ANIM_CONTROL) |
  (1 << T_ANIM_PARAMS) |
  (1 << T_PALETTE) |
  (1 << T_BASE_COLORS) |
  (1 << T_BACKGROUND) |
  (1 << T_PULSE_TABLE);

/** True for a packet of `type` that a live stream holds back (bus/send.ts). */
export function streamHolds(type: u8): bool {
  return live.protocol != P_NONE && !live.sending && type < 32 && ((HELD >> type) & 1) != 0;
}
