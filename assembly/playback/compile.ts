// A validated scene (the open JSON document, after validateScene) compiled once at play into a
// compact fixed form: per layer its group, target set, palette and blend; per step its kind,
// duration and the 20-byte animation record of docs/bus-protocol.md (duration filled at send).
import {
  kindOf,
  sizeOf,
  after,
  member,
  element,
  stringEquals,
  stringValue,
  sourceOf,
  lengthOf,
  intIn,
  J_STRING,
  J_OBJECT,
  J_TRUE,
} from "../json/reader";
import { parseHexColorAt } from "../json/validate";
import { MAX_LAYERS, MAX_STEPS, layerCount as validatedLayers, groupNumber, speed } from "../scene/state";
import { TYPES, ANIMATES } from "../scene/step";
import { resolveSelector, setCount, setClear, setAdd } from "../topology/targeting";
import { count } from "../topology/rooted";
import { appearance, findPalette } from "../state/appearance";
import { parseRunner, FLAT_STEP } from "../runner/fields";
import { Palette, BASE_COLORS_NAME, basePalette, sameName } from "../palette/palette";

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

const BLENDS: StaticArray<string> = [
  "opaque",
  "add",
  "max",
  "multiply",
  "screen",
  "darken",
  "overlay",
  "difference",
  "subtract",
];

function nameIndex(t: i32, list: StaticArray<string>): i32 {
  if (t < 0) return -1;
  for (let i = 0; i < list.length; i++) if (stringEquals(t, list[i])) return i;
  return -1;
}

function hex(t: i32): u32 {
  return <u32>parseHexColorAt(sourceOf(t), lengthOf(t));
}

/** A colour reference into 4 record bytes at `p`; `fallback` (kind 0 or 2 and data) when absent.
 * A palette position names its palette slot in the second data byte. */
function colorRef(t: i32, p: usize, fallbackKind: u8, fallbackData: u32, slot: u8): void {
  let kind = fallbackKind;
  let data = fallbackData;
  if (t >= 0 && kindOf(t) == J_STRING) {
    kind = 0;
    data = hex(t);
  } else if (t >= 0 && kindOf(t) == J_OBJECT) {
    const pal = member(t, "palette");
    const use = member(t, "useColor");
    if (pal >= 0) {
      kind = 1;
      data = ((<u32>intIn(pal, 0, 255, 0)) << 16) | ((<u32>slot) << 8);
    } else if (use >= 0) {
      kind = 2;
      data = (<u32>intIn(use, 0, 2, 0)) << 16;
    } else {
      kind = 0;
      data = 0;
      const ch = ["r", "g", "b"];
      for (let i = 0; i < 3; i++) {
        const m = member(t, ch[i]);
        data |= (<u32>(m >= 0 ? intIn(m, 0, 255, 255) : 255)) << (16 - 8 * i);
      }
    }
  }
  store<u8>(p, kind);
  store<u8>(p + 1, <u8>(data >> 16));
  store<u8>(p + 2, <u8>(data >> 8));
  store<u8>(p + 3, <u8>data);
}

function flag(step: i32, key: string): bool {
  const t = member(step, key);
  return t >= 0 && kindOf(t) == J_TRUE;
}

/** Compiles the validated scene at token `root` (needs rootAt() done for targeting). */
export function compileScene(root: i32): void {
  layerCount = validatedLayers;
  sceneLoop = flag(root, "loop");
  sceneSpeed = speed;
  const bg = member(root, "background");
  background = bg >= 0 ? hex(bg) : 0;
  const colors = member(root, "colors");
  hasColors = colors >= 0;
  const keys = ["primary", "secondary", "tertiary"];
  for (let i = 0; i < 3; i++) {
    const m = colors >= 0 ? member(colors, keys[i]) : -1;
    baseColors[i] = m >= 0 ? hex(m) : appearance.baseColors[i];
  }
  const pal = member(root, "palette");
  paletteName = pal >= 0 ? stringValue(pal) : null;
  const layers = member(root, "layers");
  slotCount = 0;
  for (let l = 0; l < layerCount; l++) {
    const layer = element(layers, l);
    const group = <u8>groupNumber[l];
    layerGroup[l] = group;
    const g = member(layer, "group");
    nameLen[l] = 0;
    if (kindOf(g) == J_STRING && lengthOf(g) <= <u32>NAME_MAX) {
      nameLen[l] = <u8>lengthOf(g);
      memory.copy(names + l * NAME_MAX, sourceOf(g), lengthOf(g));
    }
    // targets into pool set l: `panels` (default all), else `fallback` when it matches nothing
    const panels = member(layer, "panels");
    if (panels >= 0) resolveSelector(panels, l);
    else resolveSelectorAll(l);
    const fb = member(layer, "fallback");
    if (setCount(l) == 0 && fb >= 0) resolveSelector(fb, l);
    layerEmpty[l] = setCount(l) == 0;
    const lp = member(layer, "palette");
    const slot = lp >= 0 ? slotOf(stringValue(lp)) : 0;
    layerSlot[l] = slot;
    const blend = nameIndex(member(layer, "blend"), BLENDS) + 1;
    const seq = member(layer, "sequence");
    const n = sizeOf(seq);
    let st = seq + 1;
    for (let i = 0; i < n; i++) {
      const s = l * MAX_STEPS + i;
      const type = nameIndex(member(st, "type"), TYPES);
      const dur = member(st, "duration");
      stepDuration[s] = <u16>intIn(dur, 0, 65535, 0);
      stepKind[s] = type >= 0 ? K_LOCAL : member(st, "runner") >= 0 ? K_RUNNER : K_GAP;
      encodeStep(st, records + <usize>(s * REC), blend, type, slot);
      if (stepKind[s] == K_RUNNER) parseRunner(st, s, records + <usize>(s * REC));
      st = after(st);
    }
  }
}

/** The compact record (REC bytes, see `records`) of panel-local step `st` at `p`. */
function encodeStep(st: i32, p: usize, blend: i32, type: i32, slot: u8): void {
  let kind = <u32>max(type, 0);
  if (flag(st, "loop")) kind |= 0x10;
  if (flag(st, "pingpong")) kind |= 0x20;
  store<u8>(p, <u8>kind);
  const animates = max(nameIndex(member(st, "animates"), ANIMATES), 0);
  store<u8>(p + 1, <u8>(animates | (blend << 4)));
  colorRef(member(st, "colorFrom"), p + 2, 0, 0, slot);
  let to = member(st, "colorTo");
  if (to < 0) to = member(st, "color");
  colorRef(to, p + 6, 2, 0, slot); // default: the primary base colour
  const params = member(st, "params");
  const np = params >= 0 ? sizeOf(params) : 0;
  store<u8>(p + 10, np > 0 ? <u8>intIn(element(params, 0), 0, 255, 0) : 0);
  store<u8>(p + 11, np > 1 ? <u8>intIn(element(params, 1), 0, 255, 0) : 0);
  const from = member(st, "from");
  const toS = member(st, "to");
  store<u8>(p + 12, from >= 0 ? <u8>intIn(from, 0, 255, 0) : 0);
  store<u8>(p + 13, toS >= 0 ? <u8>intIn(toS, 0, 255, 255) : 255);
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
  const type = nameIndex(member(v, "type"), TYPES);
  const d = member(v, "duration");
  flatDuration = d >= 0 ? <u32>intIn(d, 0, 65535, 0) : 0;
  const panels = member(v, "panels");
  if (panels >= 0) resolveSelector(panels, FLAT_SET);
  else resolveSelectorAll(FLAT_SET);
  flatGroup = group;
  flatKind = type >= 0 ? K_LOCAL : member(v, "runner") >= 0 ? K_RUNNER : K_GAP;
  if (flatKind == K_GAP) return false;
  encodeStep(v, flatRecord, 0, type, 0);
  if (flatKind == K_RUNNER) parseRunner(v, FLAT_STEP, flatRecord);
  return true;
}

/** The slot of a layer palette override: 0 when it is the scene's palette, else the slot of the
 * first layer that named it (any casing), else the next free one. */
function slotOf(name: string): u8 {
  if (paletteName !== null && sameName(paletteName!, name)) return 0;
  for (let k = 1; k <= slotCount; k++) if (sameName(slotName[k]!, name)) return <u8>k;
  slotName[++slotCount] = name;
  return <u8>slotCount;
}

/** `panels` absent: every discovered panel. */
function resolveSelectorAll(slot: i32): void {
  setClear(slot);
  for (let p = 1; p <= count; p++) setAdd(slot, p);
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
  const b = String.UTF8.encode(name);
  for (let l = 0; l < layerCount; l++) {
    if (<i32>nameLen[l] == b.byteLength && memory.compare(names + l * NAME_MAX, changetype<usize>(b), nameLen[l]) == 0)
      return layerGroup[l];
  }
  return -1;
}
