// One emulated panel for engine tests: build/panel.wasm instantiated directly, with a clock the
// test sets and a recording panel_tx. Packets are built here from docs/bus-protocol.md with an
// independent CRC-8/SMBUS, not with the firmware's code.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./host.js";
import type { PanelExports } from "../../host/src/bus/virtual-bus.js";

export const T = {
  RESET: 1,
  ASSIGN: 2,
  HELLO: 3,
  POWER: 4,
  COLOR: 5,
  PROBE: 6,
  EMPTY: 7,
  QUERY: 8,
  STATE: 9,
  PREPARE: 12,
  START: 13,
  CONTROL: 14,
  PARAMS: 16,
  PALETTE: 17,
  BASE_COLORS: 18,
  BRIGHTNESS: 19,
  BACKGROUND: 20,
  PULSE_TABLE: 21,
} as const;

/** Total packet sizes per type (docs/bus-protocol.md). */
export const SIZE: Record<number, number> = {
  1: 5,
  2: 7,
  3: 8,
  4: 6,
  5: 8,
  6: 7,
  7: 6,
  8: 5,
  9: 9,
  12: 25,
  13: 7,
  14: 7,
  16: 10,
  17: 70,
  18: 14,
  19: 6,
  20: 8,
};

/** The kind codes of the one table (assembly/animation-kinds.json): each type's, and RUNNER. */
export const KIND = kindCodes();

function kindCodes() {
  const file = path.join(ROOT, "assembly/animation-kinds.json");
  const table = JSON.parse(fs.readFileSync(file, "utf8")) as AnimationKinds;
  return { ...Object.fromEntries(table.types.map((t) => [t.name, t.code])), RUNNER: table.runnerPulse.code } as {
    [name: string]: number;
    SOLID: number;
    FADE: number;
    TRANSITION: number;
    BREATHE: number;
    PULSE: number;
    BLINK: number;
    STROBE: number;
    HUE_CYCLE: number;
    REACTIVE: number;
    RUNNER: number;
  };
}

export interface AnimationKinds {
  types: { name: string; code: number }[];
  runnerPulse: { code: number };
}

/** The kind byte of a runner's pulse records as the controller sends them: RUNNER with its flags (0x10
 * loop, 0x20 pingpong, 0x40 reap on done, 0x80 windowed; a one-shot sweep is a window of width 0, so
 * it rises from the background). */
export const RUNNER_KIND = {
  ONE_SHOT: KIND.RUNNER | 0x40 | 0x80,
  TRAIN: KIND.RUNNER | 0x10 | 0x80,
  BOUNCE: KIND.RUNNER | 0x20 | 0x80,
} as const;

export const ANIMATES = { color: 0, dim: 1, desaturate: 2, hue: 3, invert: 4, brighten: 5, saturate: 6 } as const;

export const BLEND = {
  default: 0,
  opaque: 1,
  add: 2,
  max: 3,
  multiply: 4,
  screen: 5,
  darken: 6,
  overlay: 7,
  difference: 8,
  subtract: 9,
} as const;

/** CRC-8/SMBUS: polynomial 0x07, initial 0, not reflected, no final xor. */
export function crc8(bytes: ArrayLike<number>): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) {
    crc ^= bytes[i];
    for (let b = 0; b < 8; b++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** A bus packet: header [address, type, length, version 6, crc] and the payload (a pulse table's,
 * type 21, of any length). */
export function packet(address: number, type: number, payload: number[]): Uint8Array {
  const size = type === T.PULSE_TABLE ? payload.length + 5 : SIZE[type];
  if (size === undefined || payload.length !== size - 5) throw new Error(`bad payload for type ${type}`);
  const b = new Uint8Array(size);
  b.set([address, type, size, 6, 0]);
  b.set(payload, 5);
  b[4] = crc8([...b.subarray(0, 4), ...b.subarray(5)]);
  return b;
}

/** A colour reference: 4 bytes, kind then data. */
export type Ref = [number, number, number, number];
export const hex = (rgb: number): Ref => [0, (rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff];
/** Palette position `position` of palette slot `slot` (0: the look's palette). */
export const pal = (position: number, slot = 0): Ref => [1, position, slot, 0];
export const base = (index: number): Ref => [2, index, 0, 0];

export interface Anim {
  group: number;
  layer?: number;
  kind: number;
  loop?: boolean;
  pingpong?: boolean;
  reap?: boolean;
  animates?: number;
  blend?: number;
  colorFrom?: Ref;
  colorTo?: Ref;
  duration?: number;
  delay?: number;
  p0?: number;
  p1?: number;
  from?: number;
  to?: number;
}

/** The 20-byte animation record of "animation prepare". */
export function record(a: Anim): number[] {
  const flags = (a.loop ? 0x10 : 0) | (a.pingpong ? 0x20 : 0) | (a.reap ? 0x40 : 0);
  const d = a.duration ?? 0;
  const delay = a.delay ?? 0;
  return [
    a.group,
    a.layer ?? 0,
    a.kind | flags,
    (a.animates ?? 0) | ((a.blend ?? 0) << 4),
    ...(a.colorFrom ?? hex(0)),
    ...(a.colorTo ?? hex(0)),
    d & 0xff,
    d >> 8,
    delay & 0xff,
    delay >> 8,
    a.p0 ?? 0,
    a.p1 ?? 0,
    a.from ?? 0,
    a.to ?? 0,
  ];
}

const rgbBytes = (c: number) => [(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff];

/** The firmware under test: build/panel.wasm unless TESSERA_PANEL_WASM names another build. */
export const PANEL_WASM = process.env.TESSERA_PANEL_WASM ?? path.join(ROOT, "build/panel.wasm");
let compiled: WebAssembly.Module | undefined;

export class Panel {
  /** The panel clock (ms) that panel_clock_ms returns. */
  clock = 0;
  /** Everything the panel transmitted, in order. */
  readonly sent: { port: number; bytes: Uint8Array }[] = [];
  readonly x: PanelExports;

  constructor() {
    compiled ??= new WebAssembly.Module(fs.readFileSync(PANEL_WASM));
    const imports = {
      tessera_panel: {
        panel_tx: (port: number, ptr: number, len: number) =>
          this.sent.push({ port, bytes: new Uint8Array(this.x.memory.buffer, ptr, len).slice() }),
        panel_linked: () => 0,
        panel_clock_ms: () => this.clock >>> 0,
        panel_flash: () => -1, // no bootloader
      },
    };
    this.x = new WebAssembly.Instance(compiled, imports).exports as unknown as PanelExports;
  }

  /** A fresh panel that took `address` from an ASSIGN on port 0 (its upstream). */
  static assigned(address = 1): Panel {
    const p = new Panel();
    p.receive(packet(255, T.ASSIGN, [address, 0]));
    return p;
  }

  /** Delivers raw bytes on `port` at the current clock. */
  receive(bytes: Uint8Array, port = 0): this {
    new Uint8Array(this.x.memory.buffer, this.x.panel_rx_buffer(), bytes.length).set(bytes);
    this.x.panel_rx(port, bytes.length);
    return this;
  }

  /** Sets the clock for the packets that follow. */
  at(ms: number): this {
    this.clock = ms;
    return this;
  }

  send(type: number, payload: number[], address = 0): this {
    return this.receive(packet(address, type, payload));
  }

  prepare(a: Anim, address = 0): this {
    return this.send(T.PREPARE, record(a), address);
  }
  /** pulse table: group, first panel, mask (words bits 1-9, uses - 1 in bits 12-14, open bit 15),
   * then the entries' u16 words. */
  table(group: number, first: number, mask: number, words: number[]): this {
    return this.send(T.PULSE_TABLE, [
      group,
      first,
      mask & 0xff,
      mask >> 8,
      ...words.flatMap((w) => [w & 0xff, w >> 8]),
    ]);
  }
  start(group: number, mode = 1): this {
    return this.send(T.START, [group, mode]);
  }
  control(group: number, value: number): this {
    return this.send(T.CONTROL, [group, value]);
  }
  params(group: number, timeScale: number, p0 = 0, p1 = 0): this {
    return this.send(T.PARAMS, [group, timeScale & 0xff, timeScale >> 8, p0, p1]);
  }
  /** set palette into `slot` from [position, 0xRRGGBB] stops: byte 0 is slot << 4 | (count - 1),
   * unused stops zero. */
  palette(stops: [number, number][], slot = 0): this {
    const body = [(slot << 4) | (stops.length - 1)];
    for (let i = 0; i < 16; i++)
      body.push(...(i < stops.length ? [stops[i][0], ...rgbBytes(stops[i][1])] : [0, 0, 0, 0]));
    return this.send(T.PALETTE, body);
  }
  baseColors(c: [number, number, number]): this {
    return this.send(T.BASE_COLORS, c.flatMap(rgbBytes));
  }
  background(c: number): this {
    return this.send(T.BACKGROUND, rgbBytes(c));
  }
  color(c: number, address = 0): this {
    return this.send(T.COLOR, rgbBytes(c), address);
  }
  brightness(v: number): this {
    return this.send(T.BRIGHTNESS, [v]);
  }
  power(on: boolean): this {
    return this.send(T.POWER, [on ? 1 : 0]);
  }

  /** panel_render(now): the composited colour before brightness at `now`. */
  render(now: number): number {
    return this.x.panel_render(now) >>> 0;
  }

  /** Renders at origin + each time and returns [time, "#rrggbb"] pairs, for one readable comparison. */
  samples(times: number[], origin = 0): [number, string][] {
    return times.map((t) => [t, hexOf(this.render(origin + t))]);
  }
}

export function hexOf(c: number): string {
  return "#" + (c >>> 0).toString(16).padStart(6, "0");
}

/** Expected [time, 0xRRGGBB] pairs in the form Panel.samples returns. */
export function golden(pairs: [number, number][]): [number, string][] {
  return pairs.map(([t, c]) => [t, hexOf(c)]);
}
