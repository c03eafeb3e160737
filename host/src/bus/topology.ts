// How the emulated panels are wired: a list of panels, each plugged with its slot `inEdge` into
// slot `edge` of `parent` (a 1-based position in the list; 0 is the controller). Loaded from a
// --topology file or generated for --panels N. docs/desktop-host.md shows the file format.
import fs from "node:fs";

export interface Wire {
  parent: number; // 1-based position of the parent in the list, 0 for the controller
  edge: number; // the parent's slot 0-2 (ignored for the controller)
  inEdge: number; // this panel's slot 0-2 facing the parent
}

export const MAX_EMULATED_PANELS = 254;

/** Checks that the wires form one tree rooted at the controller with no slot used twice. */
export function validateTopology(wires: Wire[]): void {
  if (wires.length > MAX_EMULATED_PANELS) throw new Error(`at most ${MAX_EMULATED_PANELS} panels`);
  const used = new Set<string>();
  wires.forEach((w, i) => {
    const id = i + 1;
    const where = `panels[${i}]`;
    for (const [k, v] of Object.entries(w)) {
      if (!Number.isInteger(v) || v < 0) throw new Error(`${where}.${k}: must be a non-negative integer`);
    }
    if (w.edge > 2 || w.inEdge > 2) throw new Error(`${where}: edge slots are 0-2`);
    if (w.parent >= id)
      throw new Error(`${where}.parent: must name an earlier panel (1-${id - 1}) or 0 for the controller`);
    if (w.parent === 0 && id !== 1) throw new Error(`${where}.parent: only the first panel is wired to the controller`);
    const slot = `${w.parent}:${w.edge}`;
    if (w.parent > 0) {
      if (used.has(slot)) throw new Error(`${where}: slot ${w.edge} of panel ${w.parent} is already used`);
      used.add(slot);
      if (used.has(`${id}:${w.inEdge}`)) throw new Error(`${where}.inEdge: slot already used`);
    }
    used.add(`${id}:${w.inEdge}`);
  });
}

export function loadTopology(file: string): Wire[] {
  const doc = JSON.parse(fs.readFileSync(file, "utf8")) as { panels?: Partial<Wire>[] };
  if (!doc || !Array.isArray(doc.panels)) throw new Error(`${file}: expected {"panels": [...]}`);
  const wires = doc.panels.map((p) => ({ parent: p.parent ?? -1, edge: p.edge ?? 0, inEdge: p.inEdge ?? 0 }));
  validateTopology(wires);
  return wires;
}

/**
 * A tree of `n` triangles: a spine that continues on slots 1 and 2 alternately (a straight strip),
 * with a one-panel side branch on the free slot of every fourth spine panel.
 */
export function generateTopology(n: number): Wire[] {
  const wires: Wire[] = [];
  if (n <= 0) return wires;
  wires.push({ parent: 0, edge: 0, inEdge: 0 });
  let spine = 1;
  let depth = 0;
  while (wires.length < n) {
    const next = depth % 2 === 0 ? 1 : 2;
    if (depth % 4 === 2 && wires.length + 1 < n) wires.push({ parent: spine, edge: 3 - next, inEdge: 0 });
    wires.push({ parent: spine, edge: next, inEdge: 0 });
    spine = wires.length;
    depth++;
  }
  return wires;
}
