// A scene's compact form (docs/playback.md, "The compiled form"). A scene is compiled once, at save,
// by the scene pass as it reads the document (scene/validate.ts, through the writer of
// playback/form-io.ts), into tagged items in the document's order followed by one image of the scene's
// and the layers' play values (version 3), stored beside the scene file under `compiled/<id>`; at
// play those bytes are loaded into the fixed tables below (loadScene; the image by one copy),
// which the player and the runner code read: per layer its group, target set, palette slot and name;
// per step its kind, duration and the 20-byte animation record of docs/bus-protocol.md less what is
// filled at send. What depends on live state is kept pre-parsed and resolved at load: selectors
// against the discovered topology, palettes by name when they are sent.
import { MAX_LAYERS, MAX_STEPS } from "../scene/state";
import * as S from "../scene/state";
import * as F from "../scene/step";
import * as K from "../scene/step-keys";
import { resolveSelector, setCount, setCopy } from "../topology/targeting";
import { appearance, findPalette } from "../state/appearance";
import {
  parseRunner,
  putRunner,
  nextRunner,
  recordTail,
  runnerAt,
  FLAT_STEP,
  SCRATCH_STEP,
  R_RAIN,
} from "../runner/step-params";
import { Palette, BASE_COLORS_NAME, basePalette, sameName } from "../palette/palette";
import * as b from "./form-io";
import { T_END, T_PALETTE, T_LAYER, L_GROUP, L_PALETTE, L_PANELS, L_FALLBACK, L_STEP, L_END, SAVE, OWN } from "./items";
import { hashBytes, fold, HASH_SEED } from "../util/hash";
import { sceneKey, keyLength, compiledKey, compiledKeyLength } from "../scene/store";
import { keepSlot, keepString } from "../rt/arena";
import { Fixed } from "../rt/fixed";
import { utf8Bytes, utf8Decode } from "../util/utf8";
import { intText } from "../util/int-text";

// A step's kind (stepKind): an animation of its own, a runner, or a gap.
export const STEP_LOCAL: u8 = 0;
export const STEP_RUNNER: u8 = 1;
export const STEP_GAP: u8 = 2;

/** The scene's steps (layer · MAX_STEPS + step), then the flat animation's (FLAT_STEP: "layer 8"'s
 * step 0, loadFlat), then the one a save compiles (SCRATCH_STEP, putStep). */
const N = SCRATCH_STEP + 1;
/** Per step the record without group, layer, duration and delay (filled at send): kind, animates
 * and blend, colorFrom, colorTo, param0, param1, from, to. */
export const REC: i32 = 14;
export const records = memory.data(N * REC);
// (in static memory, rt/fixed.ts: no WAMR global, no start-up block, no bounds check)
export const stepDuration = changetype<Fixed<u16>>(memory.data(N * 2, 2));
export const stepKind = changetype<Fixed<u8>>(memory.data(N));
// The scene's image (IMAGE bytes): what the player reads of the scene and of each layer, in the layout
// the compiled form stores after its items and loads with one copy: the speed (f64), loop (u32), base
// colours (3 u32, those given: I_GIVEN; a load puts the appearance's in the others: baseColors),
// background (u32), the colours given (a bit each, bit 3 when the scene has `colors`), then a column per layer: blend (its index + 1), async mode, disabled
// (bytes), startAfter's layer and step (i32: -1 none, its whole sequence). A scene pass writes the
// scene's part into SAVE (never what plays: playing reads SCENE; the tags of its scene/object-reader.ts
// rows are 8-byte row numbers there: loop 1, background 3, blend 4) and putImage the layers' from
// what the pass keeps (scene/state.ts, in this layout).
export const IMAGE: i32 = 120;
export const I_COLORS: usize = 12;
export const I_GIVEN: usize = 28;
const I_LOOP: usize = 8;
const I_MODE: usize = 40;
const I_AFTER: usize = 56;
/** The playing scene's image, then the rows a load works out (reset at once by loadScene): group
 * (and a ninth, the flat animation's: loadFlat), palette slot, group name length, step count. */
const SCENE = memory.data(IMAGE + MAX_LAYERS * 4 + 1, 8);
/** The loaded scene's speed, background, whether it sets base colours (`colors`) and loops: its
 * image. */
export function sceneSpeed(): f64 {
  return load<f64>(SCENE);
}
export function background(): u32 {
  return load<u32>(SCENE, 24);
}
export function hasColors(): bool {
  return load<u8>(SCENE + I_GIVEN) != 0;
}
export function sceneLoop(): bool {
  return load<u8>(SCENE + I_LOOP) != 0;
}
/** The scene's base colours: the image's, those it does not give the appearance's (loadScene). */
export const baseColors = changetype<StaticArray<u32>>(SCENE + I_COLORS);
const layerBlend = changetype<Fixed<u8>>(SCENE + 32);
export const layerMode = changetype<Fixed<u8>>(SCENE + I_MODE); // ASYNC_*
export const layerOff = changetype<Fixed<bool>>(SCENE + I_MODE + MAX_LAYERS);
export const layerAfter = changetype<Fixed<i32>>(SCENE + I_AFTER);
export const layerAfterStep = changetype<Fixed<i32>>(SCENE + I_AFTER + MAX_LAYERS * 4);
const LOADED = SCENE + IMAGE;
/** With a ninth entry past what a load resets: the flat animation's group (loadFlat). */
export const layerGroup = changetype<Fixed<u8>>(LOADED + MAX_LAYERS * 3);
/** The palette slot a layer's palette positions read: 0 the scene's (or the appearance's)
 * palette, 1-8 the distinct layer overrides in order of first appearance (docs/playback.md). */
export const layerSlot = changetype<Fixed<u8>>(LOADED);
const nameLen = changetype<Fixed<u8>>(LOADED + MAX_LAYERS);
export const layerSteps = changetype<Fixed<u8>>(LOADED + MAX_LAYERS * 2);
/** A bit per layer whose steps may hold a slot on its panels (a panel-local step or a compiled
 * runner: spawn.ts budget), once a scene is loaded. */
export let holding: u32 = 0;
/** A bit per palette slot used by an enabled layer with panels (player.ts sendPalettes). */
export let slotsUsed: u32 = 0;
export const layerEmpty = changetype<Fixed<bool>>(memory.data(MAX_LAYERS + 1)); // the flat's: false
/** The palette name of slot k (1 ..= slotCount), as the first layer that named it gave it (that
 * layer's kept name, layerPalette); slot 0's is paletteName (null: the appearance's). */
export const slotName = changetype<Fixed<string | null>>(memory.data((MAX_LAYERS + 1) << 2, 4));
export let slotCount = 0;
const NAME_MAX = 32;
const names = memory.data(MAX_LAYERS * NAME_MAX);
export let layerCount = 0;
export let paletteName: string | null = null;
// the names outlive the export that loaded the scene: fixed slots allocated at start-up (rt/arena.ts)
const paletteKept = keepSlot(64);
/** Layer l's palette name, when it names one (layerSlot[l] is 1 until the load's end). */
const layerPalette = changetype<Fixed<usize>>(memory.data(MAX_LAYERS * 4));
for (let l = 0; l < MAX_LAYERS; l++) layerPalette[l] = changetype<usize>(keepSlot(64));

// ---- compiling: the scene pass's items into bytes -------------------------------------------------

/** The compiled form's version: a stored form of another version is ignored (the scene is compiled
 * from its JSON at play, as one without a compiled form). Bump it with any change of the layout
 * (3: the image after the items, since round 7 of issue 12; docs/decisions.md). */
export const COMPILED_VERSION: u8 = 3;
/** The prefix: the version, and the hash (util/hash.ts hashBytes) of the scene file the form was
 * compiled from followed by the rest of the form. */
export const PREFIX: u32 = 5;
const RUNNER_REC: u32 = 10;

/** A scene pass begins: its image as a scene that sets nothing. */
export function beginImage(): void {
  memory.fill(SAVE, 0, OWN);
}

/** A valid scene's pass ends: T_END, then its image, the layers' part as scene/state.ts keeps it. */
export function putImage(): void {
  store<f64>(SAVE, S.speed);
  b.put(T_END);
  b.putBytes(SAVE, OWN);
  b.putBytes(changetype<usize>(S.asyncMode), MAX_LAYERS * 2); // and disabled
  b.putBytes(changetype<usize>(S.afterLayer), MAX_LAYERS * 8); // and afterStep
}

/** The 4 record bytes at `p` of a colour reference packed by scene/color.ts; `fallbackKind` (0
 * black or 2 the primary base colour) when absent (-1). */
function colorRef(v: i32, p: usize, fallbackKind: u32): void {
  // kind << 24 | data, its bytes big-endian
  store<u32>(p, bswap<u32>(v < 0 ? fallbackKind << 24 : <u32>v));
}

/** The step just read (scene/step.ts slot) as an L_STEP item: compiled into step SCRATCH_STEP of the
 * tables (never a step that may be playing), whose bytes are then put (stepBytes). */
export function putStep(): void {
  const s = SCRATCH_STEP;
  const p = records + <usize>(s * REC);
  const kind = compileStep(p, s);
  stepDuration[s] = <u16>F.slot[K.KEY_DURATION];
  store<u8>(p, load<u8>(p) | (kind << 6));
  b.put(L_STEP);
  stepBytes(s, true);
}

/** The step just read into record `p` (runner fields into step number `s`); returns its kind. Palette
 * positions read slot 0 and blend is 0: loading puts the layer's in. */
function compileStep(p: usize, s: i32): u8 {
  const type = F.slot[K.KEY_TYPE]; // its index in generated/step-types.ts TYPES is its kind code
  const kind = type >= 0 ? STEP_LOCAL : F.slot[K.KEY_RUNNER] >= 0 ? STEP_RUNNER : STEP_GAP;
  const head =
    (<u32>max(type, 0)) | ((<u32>(F.slot[K.KEY_LOOP] == 1)) << 4) | ((<u32>(F.slot[K.KEY_PINGPONG] == 1)) << 5);
  store<u8>(p, <u8>head);
  store<u8>(p + 1, <u8>max(F.slot[K.KEY_ANIMATES], 0));
  colorRef(F.slot[K.KEY_COLOR_FROM], p + 2, 0);
  const to = F.slot[K.KEY_COLOR_TO];
  colorRef(select(to, F.slot[K.KEY_COLOR], to >= 0), p + 6, 2); // default: the primary base colour
  store<u8>(p + 10, <u8>F.param0); // (0 when not given)
  store<u8>(p + 11, <u8>F.param1);
  store<u8>(p + 12, <u8>max(F.slot[K.KEY_FROM], 0));
  const toS = F.slot[K.KEY_TO];
  store<u8>(p + 13, <u8>select(toS, 255, toS >= 0));
  if (kind == STEP_RUNNER) parseRunner(s, p);
  return kind;
}

/** Fills the prefix of the compiled form [p, p+n) for the scene file whose hash is `file` (the
 * file's bytes through util/hash.ts hashBytes); returns n. */
export function sealCompiled(p: usize, n: u32, file: u64): u32 {
  store<u8>(p, COMPILED_VERSION);
  store<u32>(p + 1, fold(hashBytes(file, p + PREFIX, n - PREFIX)));
  return n;
}

// ---- loading: the compiled bytes into the tables ------------------------------------------------

/** An L_STEP item's bytes after its tag, step `s` of the tables, put (`writing`) or read: its
 * duration, its record with its kind in the top bits of its first byte (written so by putStep; taken
 * out into stepKind), less a runner's last 4 bytes, which its fields give (runner/step-params.ts
 * recordTail); returns its kind. One walk for both directions, so the two cannot disagree. */
function stepBytes(s: i32, writing: bool): u8 {
  const p = records + <usize>(s * REC);
  b.bytes(changetype<usize>(stepDuration) + ((<usize>s) << 1), 2, writing);
  b.bytes(p, RUNNER_REC, writing);
  const kind = load<u8>(p) >> 6;
  store<u8>(p, load<u8>(p) & 0x3f);
  stepKind[s] = kind;
  if (kind != STEP_RUNNER) b.bytes(p + RUNNER_REC, REC - RUNNER_REC, writing);
  else if (writing) putRunner(s);
  else {
    nextRunner(s);
    recordTail(s, p);
  }
  return kind;
}

/**
 * Loads the compiled scene being read (playback/form-io.ts, after the prefix) into the tables, with
 * its selectors resolved against the current rooting (rootAt() first), each layer's startAfter,
 * async, disabled and step count too, where the player reads them.
 * False when the bytes are not a whole compiled scene or hold a value out of its range (nothing
 * traps; tables may have been written by then).
 */
export function loadScene(): bool {
  layerCount = 0;
  paletteName = null;
  slotCount = 0;
  holding = 0;
  slotsUsed = 0;
  memory.fill(LOADED, 0, MAX_LAYERS * 4);
  let l = -1;
  let fallback = false;
  while (!b.overrun) {
    const tag = <u8>b.next();
    if (tag == T_END) break;
    if (<u32>(tag - L_GROUP) <= <u32>(L_END - L_GROUP) && l < 0) return false; // a layer's item outside one
    switch (tag) {
      case T_PALETTE:
        paletteName = keepString(paletteKept, b.nextText());
        break;
      case T_LAYER:
        if (++l >= MAX_LAYERS) return false;
        layerCount = l + 1;
        fallback = false;
        break;
      case L_GROUP: {
        layerGroup[l] = <u8>b.next();
        const len = b.next();
        if (len > <u32>NAME_MAX) return false;
        nameLen[l] = <u8>len;
        b.nextBytes(names + l * NAME_MAX, len);
        break;
      }
      case L_PALETTE:
        keepString(changetype<string>(layerPalette[l]), b.nextText());
        layerSlot[l] = 1;
        break;
      case L_PANELS:
        // targets into pool set l; when they match nothing, the layer's `fallback` (set 9)
        resolveSelector(l);
        break;
      case L_FALLBACK:
        // (resolved whether needed or not: the panels may come after it)
        resolveSelector(9);
        fallback = true;
        break;
      case L_STEP: {
        const i = <i32>layerSteps[l];
        if (i >= MAX_STEPS) return false;
        layerSteps[l] = <u8>(i + 1);
        const s = l * MAX_STEPS + i;
        const kind = stepBytes(s, false);
        // a panel-local step or a compiled runner holds slots (when the layer has panels: loaded last)
        if ((kind == STEP_LOCAL) | ((kind == STEP_RUNNER) & (runnerAt(s).kind < R_RAIN))) holding |= 1 << l;
        break;
      }
      case L_END:
        if (fallback && setCount(l) == 0) setCopy(l, 9);
        layerEmpty[l] = setCount(l) == 0;
        break;
      default:
        return false;
    }
  }
  // the image (a value out of range plays as it is, but for a startAfter's, which indexes a table)
  b.nextBytes(SCENE, IMAGE);
  const given = <u32>load<u8>(SCENE + I_GIVEN);
  for (let i = 0; i < 3; i++) {
    const own = unchecked(baseColors[i]);
    unchecked((baseColors[i] = (given >> i) & 1 ? own : unchecked(appearance.baseColors[i])));
  }
  if (b.overrun || layerCount == 0) return false;
  unchecked((slotName[0] = paletteName));
  // per layer: its palette slot (slots numbered by first appearance among the layer palettes that
  // are not the scene's own, which is slot 0 and may come after them); each record gets its layer's
  // blend, and its palette positions their layer's slot; a layer without panels holds none
  for (let k = 0; k < layerCount; k++) {
    if (<u32>(layerAfter[k] + 1) > <u32>layerCount || <u32>(layerAfterStep[k] + 1) > <u32>MAX_STEPS) return false;
    let slot = 0;
    if (layerSlot[k]) {
      // (slot 0, the scene's palette, only when it has one)
      const name = changetype<string>(layerPalette[k]);
      slot = <i32>(changetype<usize>(paletteName) == 0);
      while (slot <= slotCount && !sameName(unchecked(slotName[slot])!, name)) slot++;
      if (slot > slotCount) unchecked((slotName[(slotCount = slot)] = name));
    }
    layerSlot[k] = <u8>slot;
    if (layerEmpty[k]) holding &= ~(1 << k);
    else if (!layerOff[k]) slotsUsed |= 1 << slot;
    for (let i = 0; i < <i32>layerSteps[k]; i++) {
      const p = records + <usize>((k * MAX_STEPS + i) * REC);
      store<u8>(p + 1, load<u8>(p + 1) | (layerBlend[k] << 4));
      for (let r = p + 2; r <= p + 6; r += 4) if (load<u8>(r) == 1) store<u8>(r, <u8>slot, 2);
    }
  }
  return true;
}

/**
 * Opens scene `id`'s stored compiled form for loadScene, when there is one of this version, whole,
 * and compiled from the scene file as it is now (its hash: a file rewritten by anything else, an
 * older firmware or a hand, does not match); false when there is none such (the JSON is compiled
 * instead).
 */
export function openCompiled(id: string): bool {
  const ck = compiledKey(id);
  const ckl = compiledKeyLength;
  b.readFile(ck, ckl, 0);
  const version = b.next();
  const hash = b.next32();
  if (b.overrun || version != COMPILED_VERSION) return false;
  const file = b.hashFile(sceneKey(id), keyLength, 0, HASH_SEED);
  if (b.overrun || fold(b.hashFile(ck, ckl, PREFIX, file)) != hash || b.overrun) return false;
  b.readFile(ck, ckl, PREFIX);
  return true;
}

/** POST /api/animations/play: the flat step read by scene/validate.ts readFlatStep, whose items
 * (its L_PANELS selector, SEL_ALL when not given, then its L_STEP) are in [p, p+n), into step
 * FLAT_STEP of the tables (runner fields there too), target set 8 and layerGroup[8]: the player
 * plays it as "layer 8". False for a gap. */
export const FLAT_SET = 8;
export function loadFlat(p: usize, n: u32, group: u8): bool {
  b.readMemory(p + 1, n - 1); // (after the L_PANELS tag: its selector through the one resolver)
  layerGroup[FLAT_SET] = group;
  resolveSelector(FLAT_SET);
  b.next(); // L_STEP
  return stepBytes(FLAT_STEP, false) != STEP_GAP;
}

/** The palette named by a scene or layer (any casing); Base colors from the scene's base colours;
 * a name that cannot be found gives Base colors (as the appearance does). Call with JSON closed. */
export function resolvePalette(name: string | null): Palette {
  const found = findPalette(changetype<usize>(name) != 0 ? name : appearance.palette);
  if (found && !sameName(found.name, BASE_COLORS_NAME)) return found;
  return basePalette(baseColors);
}

/** The group id of a layer named `name` in the compiled scene, or -1. */
export function groupOfName(name: string): i32 {
  const text = utf8Bytes(name);
  const n = text.byteLength;
  for (let l = 0; l < layerCount; l++) {
    if (<i32>nameLen[l] != n) continue;
    const at = names + l * NAME_MAX;
    let i = 0;
    while (i < n && load<u8>(at + i) == load<u8>(changetype<usize>(text) + i)) i++;
    if (i == n) return layerGroup[l];
  }
  return -1;
}

/** The layers' groups, for the 404 of a group name the scene lacks: each by its name, or its number
 * when it has none ("beat, 2"). */
export function groupList(): string {
  let list = "";
  for (let l = 0; l < layerCount; l++) {
    if (l > 0) list += ", ";
    list += nameLen[l] ? utf8Decode(names + l * NAME_MAX, nameLen[l]) : intText(layerGroup[l]);
  }
  return list;
}
