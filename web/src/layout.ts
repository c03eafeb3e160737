// Where the preview draws each panel: the triangles of GET /api/layout when the tree embeds in the
// plane, else a tidy tree drawing (depth down, leaves side by side, each parent centred over its
// children) from GET /api/panels/edges. SVG coordinates: y grows downwards.
import type { Edge, Layout } from "./api.js";

export interface Shape {
  address: number;
  /** SVG polygon points for a triangle, or empty for a disc at (x, y). */
  points: string;
  x: number;
  y: number;
}

export interface Drawing {
  shapes: Shape[];
  /** Wires of the tree drawing: [x1, y1, x2, y2]. */
  lines: [number, number, number, number][];
  viewBox: string;
  embedded: boolean;
}

const INSET = 0.9; // triangles drawn a little smaller than the tiling, so the seams show
export const DOT = 0.36;

function box(xs: number[], ys: number[], margin: number): string {
  if (xs.length === 0) return "0 0 1 1";
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const f = (n: number) => +n.toFixed(3);
  return `${f(x0 - margin)} ${f(y0 - margin)} ${f(x1 - x0 + 2 * margin)} ${f(y1 - y0 + 2 * margin)}`;
}

export function triangles(layout: Layout): Drawing {
  const r = (layout.circumradius || 1) * INSET;
  const xs: number[] = [];
  const ys: number[] = [];
  const shapes = layout.panels.map((p) => {
    const pts: string[] = [];
    for (let m = 0; m < 3; m++) {
      const a = ((p.rotation + 60 + 120 * m) * Math.PI) / 180;
      const x = p.x + r * Math.cos(a);
      const y = -(p.y + r * Math.sin(a));
      xs.push(x);
      ys.push(y);
      pts.push(`${x.toFixed(3)},${y.toFixed(3)}`);
    }
    return { address: p.index, points: pts.join(" "), x: p.x, y: -p.y };
  });
  return { shapes, lines: [], viewBox: box(xs, ys, 0.15), embedded: true };
}

export function tree(addresses: number[], edges: Edge[]): Drawing {
  const known = new Set(addresses);
  const links = new Map<number, number[]>();
  for (const a of addresses) links.set(a, []);
  const sorted = [...edges].sort((a, b) => a.panel - b.panel || a.edge - b.edge);
  for (const e of sorted)
    if (known.has(e.panel) && known.has(e.connectedPanel)) links.get(e.panel)!.push(e.connectedPanel);
  // Depth first from the lowest address (panel 1, wired to the controller), children in slot order.
  const at = new Map<number, { x: number; y: number }>();
  let nextLeaf = 0;
  const place = (a: number, depth: number, parent: number): number => {
    at.set(a, { x: 0, y: depth });
    const xs = links
      .get(a)!
      .filter((c) => c !== parent && !at.has(c))
      .map((c) => place(c, depth + 1, a));
    const x = xs.length ? (xs[0] + xs[xs.length - 1]) / 2 : nextLeaf++;
    at.get(a)!.x = x;
    return x;
  };
  for (const a of [...addresses].sort((p, q) => p - q)) if (!at.has(a)) place(a, 0, 0);
  const lines: Drawing["lines"] = [];
  for (const e of sorted) {
    const p = at.get(e.panel);
    const c = at.get(e.connectedPanel);
    if (p && c && e.panel < e.connectedPanel) lines.push([p.x, p.y, c.x, c.y]);
  }
  const shapes = addresses.map((address) => ({ address, points: "", ...at.get(address)! }));
  return {
    shapes,
    lines,
    viewBox: box(
      shapes.map((s) => s.x),
      shapes.map((s) => s.y),
      0.6,
    ),
    embedded: false,
  };
}
