// A stream frame onto the panels, and the panels back to the look when the stream stops. Pixel i
// (3 bytes, r g b) lights panel i + 1 in discovery order. One bus frame a shown stream frame: the
// frame's colours broadcast in COLORS packets (docs/bus-protocol.md), 83 panels a packet, so 100
// panels cost 312 B (800 B as unicast set colors); a frame the same as the last shown sends nothing.
// Fixed buffers: nothing is allocated.
import { MAX_PANELS, tree } from "../topology/tree";
import { sendAnimStart } from "../bus/commands";
import { body, send } from "../bus/send";
import { ADDR_BROADCAST, MAX_PACKET, T_COLORS, COLORS_HEAD } from "../bus/protocol";
import { app } from "../state/app";
import { live, streamOwn, streamDrop, P_NONE } from "./live";
import { wakeUp, WAKE_STREAM } from "../core/wake";
import { pushAppearance, showAmbient } from "../core/look";
import { resumeScene } from "../playback/player";

/** The frame being assembled, 3 bytes a panel (the fragments write into it; the push shows it). */
export const FRAME_BYTES: u32 = 3 * <u32>MAX_PANELS;
export const frame = memory.data(<i32>FRAME_BYTES, 4);
// The frame last sent (live.sent: one was, in this stream).
const shown = memory.data(<i32>FRAME_BYTES, 4);
const PER_PACKET: u32 = (MAX_PACKET - COLORS_HEAD) / 3;

/** Without a frame for this long the stream stops owning the panels. */
export const STREAM_TIMEOUT_MS: u32 = 2500;

/** Shows the assembled frame from `source` (power off: ignored). */
export function showFrame(protocol: u8, source: u32, now: u32): void {
  if (!app.isOn) return;
  live.sending = true;
  if (live.protocol == P_NONE) {
    sendAnimStart(0, 0); // a scene's animations on the panels would composite over the stream
    live.sent = false;
    wakeUp(WAKE_STREAM);
  }
  streamOwn(protocol, source, now);
  const bytes = <u32>tree.count * 3;
  if (!live.sent || memory.compare(shown, frame, bytes) != 0) {
    live.sent = true;
    memory.copy(shown, frame, bytes);
    for (let first: u32 = 0; first * 3 < bytes; first += PER_PACKET) {
      const n = min(bytes - first * 3, PER_PACKET * 3);
      const p = body();
      store<u8>(p, <u8>(first + 1));
      memory.copy(p + 1, frame + first * 3, n);
      send(ADDR_BROADCAST, T_COLORS, COLORS_HEAD + n);
    }
  }
  live.sending = false;
}

/** The loop's timer while a stream owns the panels: true once it has let them go (or never had). */
export function streamTick(now: u32): bool {
  if (live.protocol == P_NONE) return true;
  if (now - live.lastMs < STREAM_TIMEOUT_MS) return false;
  streamLetGo(now);
  return true;
}

/** The stream stops owning the panels (its timeout, or its sender said so): back to what was
 * showing, the scene in progress where its clock is now, or the look. */
export function streamLetGo(now: u32): void {
  streamDrop();
  if (!resumeScene(now)) {
    pushAppearance();
    showAmbient();
  }
}
