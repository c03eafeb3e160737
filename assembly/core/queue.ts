// The main loop's work queue. Mutating requests whose effect reaches the panels are validated at
// once, queued here and applied on the next tick (the spec's deferred-execution rule). The ring is
// preallocated; when it is full the request is answered 503 busy.
import { AppearancePatch } from "../state/appearance";
import { wakeUp, WAKE_QUEUE } from "./wake";
import { keepSlot, keepString } from "../rt/arena";

/** A queued text is a scene id (1-32 characters); a palette name is at most 30 characters. */
const TEXT_MAX = 32;
const PALETTE_MAX = 64;

export const W_APPEARANCE: u8 = 1;
export const W_POWER: u8 = 2;
export const W_PANEL_POWER: u8 = 3;
export const W_PANEL_COLOR: u8 = 4;
export const W_LOGICAL_ROOT: u8 = 5;
/** Re-send the active palette (it was updated or deleted in the store). */
export const W_PALETTE: u8 = 20;
/** Playback (assembly/playback): play `text` (a = 1 stored), stop, speed (a per mille), trigger. */
export const W_PLAY: u8 = 30;
export const W_STOP: u8 = 31;
export const W_SPEED: u8 = 32;
export const W_TRIGGER: u8 = 33;
export const W_ANIMATION: u8 = 34;

/** Queued work outlives the export that queued it, so each slot has its own fixed room for its text
 * and appearance change (allocated at start-up, rt/arena.ts): set them with setText, setAppearance. */
export class Work {
  kind: u8 = 0;
  a: i32 = 0;
  b: i32 = 0;
  appearance: AppearancePatch | null = null;
  text: string | null = null;
  private keptText: string = keepSlot(TEXT_MAX);
  private keptPatch: AppearancePatch = new AppearancePatch();
  private keptPalette: string = keepSlot(PALETTE_MAX);

  setText(s: string | null): void {
    this.text = s !== null ? keepString(this.keptText, s) : null;
  }

  setAppearance(p: AppearancePatch): void {
    const k = this.keptPatch;
    k.hasBrightness = p.hasBrightness;
    k.brightness = p.brightness;
    k.hasBaseColors = p.hasBaseColors;
    for (let i = 0; i < 3; i++) k.baseColors[i] = p.baseColors[i];
    const name = p.palette;
    k.palette = name !== null ? keepString(this.keptPalette, name) : null;
    this.appearance = k;
  }
}

export const QUEUE_SIZE: i32 = 16;
const ring = new StaticArray<Work>(QUEUE_SIZE);
for (let i = 0; i < QUEUE_SIZE; i++) ring[i] = new Work();
let head = 0; // next to take
let size = 0;

/** A free slot to fill, or null when the queue is full. */
export function enqueue(kind: u8, a: i32, b: i32): Work | null {
  if (size == QUEUE_SIZE) return null;
  const w = ring[(head + size) % QUEUE_SIZE];
  size++;
  wakeUp(WAKE_QUEUE);
  w.kind = kind;
  w.a = a;
  w.b = b;
  w.appearance = null;
  w.text = null;
  return w;
}

/** The oldest queued item, or null. The item stays valid until the next enqueue. */
export function dequeue(): Work | null {
  if (size == 0) return null;
  const w = ring[head];
  head = (head + 1) % QUEUE_SIZE;
  size--;
  return w;
}

export function queueLength(): i32 {
  return size;
}
