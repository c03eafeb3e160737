// A scene's compact form (docs/playback.md, "The compiled form"). A validated scene is compiled once,
// at save, into bytes (compileScene, through the writer of playback/bytes.ts) stored beside the scene
// file under `compiled/<id>`; at play those bytes are loaded into the fixed tables below (loadScene),
// which the player and the runner code read: per layer its group, target set, palette slot and name;
// per step its kind, duration and the 20-byte animation record of docs/bus-protocol.md less what is
// filled at send. What depends on live state is kept pre-parsed and resolved at load: selectors
// against the discovered topology, palettes by name when they are sent.
import {
  kindOf,
  sizeOf,
  after,
  member,
  stringEquals,
  stringValue,
  sourceOf,
  lengthOf,
  intIn,
  J_STRING,
  J_OBJECT,
  J_TRUE,
} from "../json/reader";
import { textOf, tp, tl } from "../scene/text";
import { parseHexColorAt } from "../json/validate";
import {
  MAX_LAYERS,
  MAX_STEPS,
  ASYNC_FREE,
  layerCount as validatedLayers,
  groupNumber,
  speed,
  disabled,
  afterLayer,
  afterStep,
  asyncMode,
  stepCount,
} from "../scene/state";
import * as F from "../scene/step";
import { BLENDS, COLOR_KEYS } from "../scene/validate";
import { checkSelector, SEL_ALL, SEL_NONE } from "../scene/targeting";
import { resolveSelector, setCount } from "../topology/targeting";
import { appearance, findPalette } from "../state/appearance";
import { parseRunner, putRunner, nextRunner, recordTail, yes, FLAT_STEP, SCRATCH_STEP } from "../runner/fields";
import { Palette, BASE_COLORS_NAME, basePalette, sameName } from "../palette/palette";
import * as b from "./bytes";
import { sceneKey, keyLength, compiledKey, compiledKeyLength, MAX_SCENE_FILE } from "../scene/store";
import { keepSlot, keepString } from "../rt/arena";

export const K_LOCAL: u8 = 0;
export const K_RUNNER: u8 = 1;
export const K_GAP: u8 = 2;

const N = MAX_LAYERS * MAX_STEPS;
/** Per step the record without group, layer, duration and delay (filled at send): kind, animates
 * and blend, colorFrom, colorTo, param0, param1, from, to. */
export const REC: i32 = 14;
export const records = memory.data(N * REC);
export const stepDuration = new StaticArray<u16>(N);
export const stepKind = new StaticArray<u8>(N);
export const layerGroup = new StaticArray<u8>(MAX_LAYERS);
export const layerEmpty = new StaticArray<bool>(MAX_LAYERS);
/** The palette slot a layer's palette positions read: 0 the scene's (or the appearance's)
 * palette, 1-8 the distinct layer overrides in order of first appearance (docs/playback.md). */
export const layerSlot = new StaticArray<u8>(MAX_LAYERS);
/** The palette name of slot k (1 ..= slotCount), as the layer gave it. */
export const slotName = new StaticArray<string | null>(MAX_LAYERS + 1);
export let slotCount = 0;
const NAME_MAX = 32;
const names = memory.data(MAX_LAYERS * NAME_MAX);
const nameLen = new StaticArray<u8>(MAX_LAYERS);
export let layerCount = 0;
export let sceneLoop = false;
export let sceneSpeed: f64 = 1;
export let background: u32 = 0;
export let hasColors = false;
export const baseColors = new StaticArray<u32>(3);
export let paletteName: string | null = null;
// the names outlive the export that loaded the scene: fixed slots allocated at start-up (rt/arena.ts)
const paletteKept = keepSlot(64);
const slotKept = new StaticArray<string>(MAX_LAYERS + 1);
for (let k = 0; k <= MAX_LAYERS; k++) slotKept[k] = keepSlot(64);

const CHANNELS: StaticArray<string> = ["r", "g", "b"];

function hex(t: i32): u32 {
  return <u32>parseHexColorAt(sourceOf(t), lengthOf(t));
}

/** A colour reference into 4 record bytes at `p`; `fallbackKind` (0 black or 2 the primary base
 * colour) when absent. A palette position names its palette slot in the second data byte. */
function colorRef(t: i32, p: usize, fallbackKind: u8): void {
  let kind = fallbackKind;
  let data: u32 = 0;
  if (t >= 0 && kindOf(t) == J_STRING) {
    kind = 0;
    data = hex(t);
  } else if (t >= 0 && kindOf(t) == J_OBJECT) {
    const pal = member(t, "palette");
    const use = member(t, "useColor");
    if (pal >= 0) {
      kind = 1;
      data = (<u32>intIn(pal, 0, 255, 0)) << 16;
    } else if (use >= 0) {
      kind = 2;
      data = (<u32>intIn(use, 0, 2, 0)) << 16;
    } else {
      kind = 0;
      data = 0;
      for (let i = 0; i < 3; i++) {
        const m = member(t, CHANNELS[i]);
        data |= (<u32>(m >= 0 ? intIn(m, 0, 255, 255) : 255)) << (16 - 8 * i);
      }
    }
  }
  store<u8>(p, kind);
  store<u8>(p + 1, <u8>(data >> 16));
  store<u8>(p + 2, <u8>(data >> 8));
  store<u8>(p + 3, <u8>data);
}

// ---- compiling: the validated JSON document into bytes ------------------------------------------

/** The compiled form's version: a stored form of another version is ignored (the scene is compiled
 * from its JSON at play, as one without a compiled form). Bump it with any change of the layout. */
export const COMPILED_VERSION: u8 = 1;
/** The prefix: the version, and the hash (bytes.ts hashBytes) of the scene file the form was
 * compiled from followed by the rest of the form. */
export const PREFIX: u32 = 5;
const rec = memory.data(REC);
const RUNNER_REC: u32 = 10;

function putRgb(c: u32): void {
  b.put(c >> 16);
  b.put(c >> 8);
  b.put(c);
}

/**
 * Compiles the validated scene at token `root` (after validateScene: its state.ts tables) through
 * the writer of playback/bytes.ts (writeInto first), the prefix left for sealCompiled:
 *   layer count; flags (1 loop, 2 colors, 4 palette); speed (f64); background (RGB); per base
 *   colour 1 and its RGB, or 0; the palette name;
 *   per layer: group id; name (raw bytes, empty when not a name of at most 32 bytes); flags (1
 *   disabled, 2 palette, async mode << 4); the palette name; startAfter layer and step (255: none);
 *   step count; `panels`, the length of `fallback` (u16) and `fallback` (scene/targeting.ts
 *   checkSelector); per step: duration (u16), the record (its kind in the top bits of the first
 *   byte; a runner's without its last 4 bytes, which its fields give) and, for a runner, its fields
 *   (runner/fields.ts putRunner).
 * Names are a length byte and UTF-8. Writes no table the player reads.
 */
export function compileScene(root: i32): void {
  for (let i: u32 = 0; i < PREFIX; i++) b.put(0);
  const n = validatedLayers;
  b.put(n);
  const colors = member(root, "colors");
  const pal = member(root, "palette");
  const loop = member(root, "loop");
  b.put((loop >= 0 && kindOf(loop) == J_TRUE ? 1 : 0) | (colors >= 0 ? 2 : 0) | (pal >= 0 ? 4 : 0));
  b.putF64(speed);
  const bg = member(root, "background");
  putRgb(bg >= 0 ? hex(bg) : 0);
  for (let i = 0; i < 3; i++) {
    const c = colors >= 0 ? member(colors, COLOR_KEYS[i]) : -1;
    b.put(c >= 0 ? 1 : 0);
    if (c >= 0) putRgb(hex(c));
  }
  if (pal >= 0) putName(pal);
  const layers = member(root, "layers");
  let layer = layers + 1;
  for (let l = 0; l < n; l++) {
    b.put(groupNumber[l]);
    const g = member(layer, "group");
    const named = kindOf(g) == J_STRING && lengthOf(g) <= <u32>NAME_MAX;
    b.put(named ? lengthOf(g) : 0);
    if (named) b.putBytes(sourceOf(g), lengthOf(g));
    const lp = member(layer, "palette");
    b.put((disabled[l] ? 1 : 0) | (lp >= 0 ? 2 : 0) | ((<u32>asyncMode[l]) << 4));
    if (lp >= 0) putName(lp);
    b.put((<u32>afterLayer[l]) & 0xff);
    b.put((<u32>afterStep[l]) & 0xff);
    b.put(stepCount[l]);
    const panels = member(layer, "panels");
    if (panels >= 0) checkSelector(panels);
    else b.put(SEL_ALL);
    // the fallback after its length: a layer whose panels match skips it
    const fallback = member(layer, "fallback");
    const at = b.outLength;
    b.put(0);
    b.put(0);
    if (fallback >= 0) checkSelector(fallback);
    else b.put(SEL_NONE);
    b.patch16(at, b.outLength - at - 2);
    const blend = F.nameIndex(member(layer, "blend"), BLENDS) + 1;
    let st = member(layer, "sequence") + 1;
    for (let i = 0; i < stepCount[l]; i++) {
      const kind = compileStep(st, rec, blend, SCRATCH_STEP);
      const d = <u32>intIn(F.slot[F.K_DURATION], 0, 65535, 0);
      b.put(d);
      b.put(d >> 8);
      store<u8>(rec, load<u8>(rec) | (kind << 6));
      // a runner's record ends in what its fields give (runner/fields.ts recordTail)
      b.putBytes(rec, kind == K_RUNNER ? RUNNER_REC : REC);
      if (kind == K_RUNNER) putRunner(SCRATCH_STEP);
      st = after(st);
    }
    layer = after(layer);
  }
}

/** The open document compiled again (a scene played from its JSON reads it a window at a time). */
export function compileOpen(): void {
  compileScene(0);
}

/** A palette name token as a length byte and its UTF-8 text. */
function putName(t: i32): void {
  textOf(t);
  b.put(tl);
  b.putBytes(tp, tl);
}

/** Step `st`'s record into `p` (runner fields into step number `s`); returns its kind. Palette
 * positions read slot 0: loading puts the layer's slot in. */
function compileStep(st: i32, p: usize, blend: i32, s: i32): u8 {
  F.readFields(st);
  const type = F.nameIndex(F.slot[F.K_TYPE], F.TYPES);
  const kind = type >= 0 ? K_LOCAL : F.slot[F.K_RUNNER] >= 0 ? K_RUNNER : K_GAP;
  let head = <u32>max(type, 0);
  if (yes(F.K_LOOP)) head |= 0x10;
  if (yes(F.K_PINGPONG)) head |= 0x20;
  store<u8>(p, <u8>head);
  const animates = max(F.nameIndex(F.slot[F.K_ANIMATES], F.ANIMATES), 0);
  store<u8>(p + 1, <u8>(animates | (blend << 4)));
  colorRef(F.slot[F.K_COLOR_FROM], p + 2, 0);
  let to = F.slot[F.K_COLOR_TO];
  if (to < 0) to = F.slot[F.K_COLOR];
  colorRef(to, p + 6, 2); // default: the primary base colour
  const params = F.slot[F.K_PARAMS];
  const np = params >= 0 ? sizeOf(params) : 0;
  // params[0] and params[1] (validated integers 0-255; numbers are one token each)
  store<u8>(p + 10, np > 0 ? <u8>intIn(params + 1, 0, 255, 0) : 0);
  store<u8>(p + 11, np > 1 ? <u8>intIn(params + 2, 0, 255, 0) : 0);
  const from = F.slot[F.K_FROM];
  const toS = F.slot[F.K_TO];
  store<u8>(p + 12, from >= 0 ? <u8>intIn(from, 0, 255, 0) : 0);
  store<u8>(p + 13, toS >= 0 ? <u8>intIn(toS, 0, 255, 255) : 255);
  if (kind == K_RUNNER) parseRunner(s, p);
  return kind;
}

/** Fills the prefix of the compiled form [p, p+n) for the scene file [file, file+length) it goes with. */
export function sealCompiled(p: usize, n: u32, file: usize, length: u32): void {
  store<u8>(p, COMPILED_VERSION);
  store<u32>(p + 1, b.fold(b.hashBytes(b.hashBytes(b.HASH_SEED, file, length), p + PREFIX, n - PREFIX)));
}

// ---- loading: the compiled bytes into the tables ------------------------------------------------

function nextRgb(): u32 {
  const r = b.next();
  const g = b.next();
  return (r << 16) | (g << 8) | b.next();
}

/** The slot of a layer palette override: 0 when it is the scene's palette, else the slot of the
 * first layer that named it (any casing), else the next free one. */
function slotOf(name: string): u8 {
  if (paletteName !== null && sameName(paletteName!, name)) return 0;
  for (let k = 1; k <= slotCount; k++) if (sameName(slotName[k]!, name)) return <u8>k;
  slotName[++slotCount] = keepString(slotKept[slotCount], name);
  return <u8>slotCount;
}

/**
 * Loads the compiled scene being read (playback/bytes.ts, after the prefix) into the tables, with
 * its selectors resolved against the current rooting (rootAt() first) and the scene's startAfter,
 * async, disabled and step count into scene/state.ts, where the player and the spawners read them.
 * False when the bytes are not a whole compiled scene or hold a value out of its range (nothing
 * traps; tables may have been written by then).
 */
export function loadScene(): bool {
  const n = <i32>b.next();
  if (n < 1 || n > MAX_LAYERS) return false;
  const flags = b.next();
  layerCount = n;
  sceneLoop = (flags & 1) != 0;
  sceneSpeed = b.nextF64();
  background = nextRgb();
  hasColors = (flags & 2) != 0;
  for (let i = 0; i < 3; i++) baseColors[i] = b.next() ? nextRgb() : appearance.baseColors[i];
  paletteName = flags & 4 ? keepString(paletteKept, b.nextText()) : null;
  slotCount = 0;
  for (let l = 0; l < n; l++) {
    layerGroup[l] = <u8>b.next();
    const len = b.next();
    if (len > <u32>NAME_MAX) return false;
    nameLen[l] = <u8>len;
    b.nextBytes(names + l * NAME_MAX, len);
    const lf = b.next();
    const slot = lf & 2 ? slotOf(b.nextText()) : 0;
    const after = b.next();
    const afterAt = b.next();
    const steps = <i32>b.next();
    // what indexes a table is checked; other values, however odd, cannot trap
    if ((after >= <u32>n && after != 0xff) || steps > MAX_STEPS) return false;
    disabled[l] = (lf & 1) != 0;
    asyncMode[l] = <u8>(lf >> 4);
    afterLayer[l] = <i8>after;
    afterStep[l] = <i8>afterAt;
    layerSlot[l] = <u8>slot;
    stepCount[l] = steps;
    // targets into pool set l: `panels`, else `fallback` when it matches nothing
    resolveSelector(l);
    const skip = b.next() | (b.next() << 8);
    if (setCount(l) == 0) resolveSelector(l);
    else b.skip(skip);
    layerEmpty[l] = setCount(l) == 0;
    for (let i = 0; i < steps; i++) {
      const st = l * MAX_STEPS + i;
      const p = records + <usize>(st * REC);
      stepDuration[st] = <u16>(b.next() | (b.next() << 8));
      b.nextBytes(p, RUNNER_REC);
      const kind = load<u8>(p) >> 6;
      store<u8>(p, load<u8>(p) & 0x3f);
      stepKind[st] = kind;
      // palette positions read the layer's slot
      for (let r = p + 2; r <= p + 6; r += 4) if (load<u8>(r) == 1) store<u8>(r, slot, 2);
      if (kind != K_RUNNER) b.nextBytes(p + RUNNER_REC, REC - RUNNER_REC);
      else {
        nextRunner(st);
        recordTail(st, p);
      }
    }
  }
  return !b.overrun;
}

/**
 * Loads scene `id`'s stored compiled form, when there is one of this version, whole, and compiled
 * from the scene file as it is now (its hash: a file rewritten by anything else, an older firmware
 * or a hand, does not match): 1. 0 when there is none such (no table was written: compile
 * the JSON instead), -1 when its bytes are not a compiled scene after all (tables may have been
 * written). Needs rootAt() done.
 */
export function loadCompiled(id: string): i32 {
  const ck = compiledKey(id);
  const ckl = compiledKeyLength;
  b.readFile(ck, ckl, 0);
  const version = b.next();
  const hash = b.next32();
  if (b.overrun || version != COMPILED_VERSION) return 0;
  const file = b.hashFile(sceneKey(id), keyLength, 0, b.HASH_SEED);
  if (b.overrun || b.fold(b.hashFile(ck, ckl, PREFIX, file)) != hash || b.overrun) return 0;
  b.readFile(ck, ckl, PREFIX);
  return loadScene() ? 1 : -1;
}

/** POST /api/animations/play: the flat step at token `v` into `flatRecord` (runner fields at
 * runner/fields FLAT_STEP) and target set 8; its duration into `flatDuration`, its kind into
 * `flatKind`. False for a gap. */
export const FLAT_SET = 8;
export const flatRecord = memory.data(REC);
export let flatGroup: u8 = 0;
export let flatDuration: u32 = 0;
export let flatKind: u8 = K_GAP;
export function compileFlat(v: i32, group: u8): bool {
  // its selector goes through the compiled form too: one resolver
  flatSelector = member(v, "panels");
  b.readWritten(writeFlatSelector, 0);
  resolveSelector(FLAT_SET);
  flatGroup = group;
  flatKind = compileStep(v, flatRecord, 0, FLAT_STEP);
  const d = F.slot[F.K_DURATION];
  flatDuration = d >= 0 ? <u32>intIn(d, 0, 65535, 0) : 0;
  return flatKind != K_GAP;
}

let flatSelector = -1;

function writeFlatSelector(): void {
  if (flatSelector >= 0) checkSelector(flatSelector);
  else b.put(SEL_ALL);
}

/** The palette named by a scene or layer (any casing); Base colors from the scene's base colours;
 * a name that cannot be found gives Base colors (as the appearance does). Call with JSON closed. */
export function resolvePalette(name: string | null): Palette {
  if (name === null) {
    const active = findPalette(appearance.palette);
    if (active && !sameName(active.name, BASE_COLORS_NAME)) return active;
    return basePalette(baseColors);
  }
  const found = findPalette(name);
  if (found && !sameName(found.name, BASE_COLORS_NAME)) return found;
  return basePalette(baseColors);
}

/** The group id of a layer named `name` in the compiled scene, or -1. */
export function groupOfName(name: string): i32 {
  const text = String.UTF8.encode(name);
  for (let l = 0; l < layerCount; l++) {
    const n = nameLen[l];
    if (<i32>n == text.byteLength && memory.compare(names + l * NAME_MAX, changetype<usize>(text), n) == 0)
      return layerGroup[l];
  }
  return -1;
}
