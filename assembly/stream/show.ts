// A stream frame onto the panels, and the panels back to the look when the stream stops. Pixel i
// (3 bytes, r g b) lights panel i + 1 in discovery order. One bus frame a shown stream frame: the
// bus has no broadcast of per-panel colours, so each panel whose colour changed gets a unicast
// `set color` (8 B; all of them on the stream's first frame). Fixed buffers: nothing is allocated.
import { MAX_PANELS, tree } from "../topology/tree";
import { sendColor, sendAnimStart } from "../bus/commands";
import { app } from "../state/app";
import { live, streamOwn, streamDrop, P_NONE } from "./live";
import { wakeUp, WAKE_STREAM } from "../core/wake";
import { pushAppearance, showAmbient } from "../core/look";
import { resumeScene } from "../playback/player";

/** The frame being assembled, 3 bytes a panel (the fragments write into it; the push shows it). */
export const FRAME_BYTES: u32 = 3 * <u32>MAX_PANELS;
export const frame = memory.data(<i32>FRAME_BYTES);
// What each panel was last sent (0x01000000 | rgb; 0: nothing yet in this stream).
const shown = memory.data(4 * MAX_PANELS, 4);

/** Without a frame for this long the stream stops owning the panels. */
export const STREAM_TIMEOUT_MS: u32 = 2500;

/** Shows the assembled frame from `source` (power off: ignored). */
export function showFrame(protocol: u8, source: u32, now: u32): void {
  if (!app.isOn) return;
  live.sending = true;
  if (live.protocol == P_NONE) {
    sendAnimStart(0, 0); // a scene's animations on the panels would composite over the stream
    memory.fill(shown, 0, 4 * MAX_PANELS);
    wakeUp(WAKE_STREAM);
  }
  streamOwn(protocol, source, now);
  const n = <u32>tree.count;
  for (let i: u32 = 0; i < n; i++) {
    const p = frame + i * 3;
    const rgb = 0x1000000 | ((<u32>load<u8>(p)) << 16) | ((<u32>load<u8>(p, 1)) << 8) | (<u32>load<u8>(p, 2));
    const at = shown + (i << 2);
    if (load<u32>(at) == rgb) continue;
    store<u32>(at, rgb);
    sendColor(<u8>(i + 1), rgb & 0xffffff);
  }
  live.sending = false;
}

/** The loop's timer while a stream owns the panels: true once it has let them go (or never had). */
export function streamTick(now: u32): bool {
  if (live.protocol == P_NONE) return true;
  if (now - live.lastMs < STREAM_TIMEOUT_MS) return false;
  streamDrop();
  // back to what was showing: the scene in progress where its clock is now, or the look
  if (!resumeScene(now)) {
    pushAppearance();
    showAmbient();
  }
  return true;
}
