// The web app's icon (the manifest's, the tab's and a phone's home screen's), declared once as
// geometry and written both as SVG and as PNG: four triangular panels, as the live preview draws
// them, on the page's dark background. Full bleed, with the panels inside the middle 80% circle, so
// a launcher may mask it to any shape. Nothing is downloaded or rasterized by another tool.
import zlib from "node:zlib";
import { crc32 } from "crc";

const BACKGROUND = "#111318";
const SIDE = 0.66; // of the big triangle, in icon widths: its circumradius (0.38) is inside the safe 0.4
const SHRINK = 0.9; // each panel drawn 10% smaller about its centre, so the seams show (as the preview)

/** The four panels: [colour, three [x, y] corners] in a unit square. */
function panels() {
  const h = (SIDE * Math.sqrt(3)) / 2;
  const top = [0.5, 0.5 - (2 * h) / 3];
  const left = [0.5 - SIDE / 2, 0.5 + h / 3];
  const right = [0.5 + SIDE / 2, 0.5 + h / 3];
  const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const [l, r, b] = [mid(top, left), mid(top, right), mid(left, right)];
  const shrink = (t) => {
    const c = [(t[0][0] + t[1][0] + t[2][0]) / 3, (t[0][1] + t[1][1] + t[2][1]) / 3];
    return t.map(([x, y]) => [c[0] + (x - c[0]) * SHRINK, c[1] + (y - c[1]) * SHRINK]);
  };
  return [
    ["#6EA8FF", [top, l, r]],
    ["#FF8000", [l, left, b]],
    ["#7EE0A1", [r, b, right]],
    ["#FF5FA2", [l, b, r]],
  ].map(([color, t]) => [color, shrink(t)]);
}

export function iconSvg() {
  const polygons = panels()
    .map(
      ([color, t]) =>
        `<polygon fill="${color}" points="${t.map(([x, y]) => `${+(x * 96).toFixed(2)},${+(y * 96).toFixed(2)}`).join(" ")}"/>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" fill="${BACKGROUND}"/>${polygons}</svg>\n`;
}

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** The icon as a `size`x`size` RGB PNG, each pixel the average of 4x4 samples (smooth edges). */
export function iconPng(size) {
  const tris = panels().map(([color, t]) => [rgb(color), t]);
  const inside = ([a, b, c], x, y) => {
    const e = (p, q) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
    const [u, v, w] = [e(a, b), e(b, c), e(c, a)];
    return (u >= 0 && v >= 0 && w >= 0) || (u <= 0 && v <= 0 && w <= 0); // either winding
  };
  const bg = rgb(BACKGROUND);
  const N = 4;
  const rows = Buffer.alloc(size * (1 + 3 * size));
  for (let py = 0; py < size; py++) {
    const row = py * (1 + 3 * size); // filter byte 0 (none)
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < N; sy++)
        for (let sx = 0; sx < N; sx++) {
          const x = (px + (sx + 0.5) / N) / size;
          const y = (py + (sy + 0.5) / N) / size;
          const hit = tris.find(([, t]) => inside(t, x, y));
          const c = hit ? hit[0] : bg;
          for (let k = 0; k < 3; k++) sum[k] += c[k];
        }
      for (let k = 0; k < 3; k++) rows[row + 1 + 3 * px + k] = Math.round(sum[k] / (N * N));
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
