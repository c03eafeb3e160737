// The main loop's work queue. Mutating requests whose effect reaches the panels are validated at
// once, queued here and applied on the next tick (the spec's deferred-execution rule). The ring is
// preallocated; when it is full the request is answered 503 busy.
import { AppearancePatch } from "../state/appearance";
import { wakeUp, WAKE_QUEUE } from "./wake";
import { utf8Decode, utf8Encode } from "../util/utf8";

export const W_APPEARANCE: u8 = 1;
export const W_POWER: u8 = 2;
export const W_PANEL_POWER: u8 = 3;
export const W_PANEL_COLOR: u8 = 4;
export const W_LOGICAL_ROOT: u8 = 5;
/** Re-send the active palette (it was updated or deleted in the store). */
export const W_PALETTE: u8 = 6;
/** Playback (assembly/playback): play `text` (a = 1 stored), stop, speed (a per mille), trigger. */
export const W_PLAY: u8 = 7;
export const W_STOP: u8 = 8;
export const W_SPEED: u8 = 9;
export const W_TRIGGER: u8 = 10;
export const W_ANIMATION: u8 = 11;

export const QUEUE_SIZE: i32 = 16;
/** The most a queued text takes in UTF-8: a palette name (at most 30 characters, 120 bytes); a scene
 * id has 1-32 characters. */
const TEXT_ROOM: u32 = 120;
/** The queued texts, one after another from the start of the pool, which starts over when the queue
 * is empty (it empties on every tick that takes work). Room for 15 texts of 40 bytes (ids, ASCII
 * names) and one of TEXT_ROOM, where a room each took 16 x 120 bytes: work is refused (busy) only
 * when the pool cannot take a text of TEXT_ROOM, that is with long names beyond ASCII queued. */
const TEXT_POOL: u32 = 15 * 40 + TEXT_ROOM;
const texts = memory.data(<i32>TEXT_POOL);
let textEnd: u32 = 0;

/** Queued work outlives the export that queued it, and an export's memory is given back when it
 * returns (rt/arena.ts): a slot keeps its text as bytes in static memory and its appearance change
 * as plain fields, set with setText and setAppearance; text() and appearance() make them again in
 * the memory of the export that takes the item. The slots themselves are static too (WORKS): no
 * start-up block, no global for the ring. */
@final
@unmanaged
export class Work {
  kind: u8;
  a: i32;
  b: i32;
  private at: usize; // its text, in the pool (enqueue)
  private textLen: i32; // -1: none (enqueue clears it)
  private hasPatch: bool;
  private has: u32; // AppearancePatch.has
  private brightness: u32;
  private c0: u32; // the three base colours, one after another
  private c1: u32;
  private c2: u32;

  /** On the item enqueue returned last, before the next enqueue. `s` fits: callers queue validated
   * ids and names only. */
  setText(s: string | null): void {
    this.textLen = -1;
    if (changetype<usize>(s) != 0 && <u32>utf8Encode(changetype<usize>(s), s.length, 0) <= TEXT_ROOM) {
      this.textLen = <i32>utf8Encode(changetype<usize>(s), s.length, this.at);
      textEnd += <u32>this.textLen;
    }
  }

  clear(): void {
    this.textLen = -1;
    this.hasPatch = false;
  }

  text(): string | null {
    return this.textLen >= 0 ? utf8Decode(this.at, <usize>this.textLen) : null;
  }

  setAppearance(p: AppearancePatch): void {
    this.hasPatch = true;
    this.has = p.has;
    this.brightness = p.brightness;
    memory.copy(changetype<usize>(this) + offsetof<Work>("c0"), changetype<usize>(p.baseColors), 12);
    this.setText(p.palette);
  }

  appearance(): AppearancePatch | null {
    if (!this.hasPatch) return null;
    const p = new AppearancePatch();
    p.has = this.has;
    p.brightness = this.brightness;
    memory.copy(changetype<usize>(p.baseColors), changetype<usize>(this) + offsetof<Work>("c0"), 12);
    p.palette = this.text();
    return p;
  }
}

const WORK_SIZE = offsetof<Work>();
const WORKS = memory.data(<i32>WORK_SIZE * QUEUE_SIZE, 4);

/** Slot i of the ring. */
function slotAt(i: i32): Work {
  return changetype<Work>(WORKS + <usize>i * WORK_SIZE);
}
let head = 0; // next to take
let size = 0;

/** Whether enqueue refuses now: every slot taken, or the text pool without room for a text of
 * TEXT_ROOM. A request that stores before it queues asks this first, so that a refusal (503 busy)
 * changes nothing. */
export function queueFull(): bool {
  return size == QUEUE_SIZE || textEnd > TEXT_POOL - TEXT_ROOM;
}

/** A free slot to fill, or null when the queue (or its text pool) is full. */
export function enqueue(kind: u8, a: i32, b: i32): Work | null {
  if (queueFull()) return null;
  const w = slotAt((head + size) % QUEUE_SIZE);
  store<usize>(changetype<usize>(w), texts + textEnd, offsetof<Work>("at"));
  size++;
  wakeUp(WAKE_QUEUE);
  w.kind = kind;
  w.a = a;
  w.b = b;
  w.clear();
  return w;
}

/** The oldest queued item, or null. The item stays valid until the next enqueue. */
export function dequeue(): Work | null {
  if (size == 0) return null;
  const w = slotAt(head);
  head = (head + 1) % QUEUE_SIZE;
  size--;
  if (size == 0) textEnd = 0; // the pool starts over (the item's text stays until the next enqueue)
  return w;
}

export function queueLength(): i32 {
  return size;
}
