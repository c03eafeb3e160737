// The pulse table (bus type 21, docs/bus-protocol.md "Pulse table") decoded as a panel applies it:
// tables arm the panels they give an entry to, and each of the next `uses` broadcast prepares of
// that group stands for one record per armed panel (its entry added to the record's words, modulo
// 2^16); panels left out ignore them. Tests read the mirror stream through TableExpander to get the
// per-panel records the panels prepare.

import { KIND } from "./panel.js";

export const PULSE_TABLE = 21;
const PREPARE = 12;
const START = 13;
const OPEN = 0x8000;
const SKIP = 0xffff;

/** One mirrored packet: address, type and payload (the bytes after the 5-byte header). */
export interface BusRecord {
  address: number;
  type: number;
  body: number[];
}

/** A pulse table payload decoded: group, first panel, the carried record words, the entries. */
export function decodeTable(body: number[]): {
  group: number;
  first: number;
  open: boolean;
  uses: number;
  words: number[];
  entries: Array<number[] | null>;
} {
  const mask = body[2] | (body[3] << 8);
  const words = [...Array(10).keys()].filter((w) => mask & (1 << w));
  const entries: Array<number[] | null> = [];
  for (let o = 4; o + 2 * words.length <= body.length; o += 2 * words.length) {
    const e = words.map((_, k) => body[o + 2 * k] | (body[o + 2 * k + 1] << 8));
    entries.push(e[e.length - 1] === SKIP ? null : e); // the last word marks a panel left out
  }
  return { group: body[0], first: body[1], open: (mask & OPEN) !== 0, uses: ((mask >> 12) & 7) + 1, words, entries };
}

/**
 * Adds an entry's values to the record's words, as the panel does: in 32 bits, downwards; a sum
 * above 65535 is the window centre (word 2) of a looping windowed runner pulse modulo its duration,
 * or else the prepare is ignored (false).
 */
export function addWords(body: number[], words: number[], values: number[]): boolean {
  for (let k = words.length - 1; k >= 0; k--) {
    const w = words[k];
    let v = body[2 * w] + (body[2 * w + 1] << 8) + values[k];
    if (v > 0xffff) {
      const duration = body[12] | (body[13] << 8);
      if (w !== 2 || (body[2] & 0xbf) !== (KIND.RUNNER | 0x90) || duration === 0) return false;
      v %= duration;
    }
    body[2 * w] = v & 0xff;
    body[2 * w + 1] = v >> 8;
  }
  return true;
}

/** A stateful decoder over a stream of records, in order (one per mirror client). */
export class TableExpander {
  private group = 0;
  private uses = 0;
  private armed = new Map<number, { words: number[]; values: number[] }>();

  /** The records `r` stands for: a table gives none; a broadcast prepare it serves, one prepare per
   * armed panel in index order (addressed to the panel); anything else itself. */
  expand(r: BusRecord): BusRecord[] {
    if (r.type === PULSE_TABLE) {
      const t = decodeTable(r.body);
      if (t.open || t.group !== this.group) this.armed.clear();
      this.group = t.group;
      this.uses = t.uses;
      t.entries.forEach((e, k) => {
        if (e) this.armed.set(t.first + k, { words: t.words, values: e });
        else this.armed.delete(t.first + k);
      });
      return [];
    }
    if (r.type === START && r.body[1] === 0 && (r.body[0] === 0 || r.body[0] === this.group)) this.group = 0;
    if (r.type !== PREPARE || r.address !== 0 || this.group === 0 || r.body[0] !== this.group) return [r];
    if (--this.uses === 0) this.group = 0;
    const out: BusRecord[] = [];
    for (const panel of [...this.armed.keys()].sort((a, b) => a - b)) {
      const { words, values } = this.armed.get(panel)!;
      const body = [...r.body];
      if (addWords(body, words, values)) out.push({ address: panel, type: PREPARE, body });
    }
    if (this.group === 0) this.armed.clear();
    return out;
  }

  expandAll(records: BusRecord[]): BusRecord[] {
    return records.flatMap((r) => this.expand(r));
  }
}
