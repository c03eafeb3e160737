// Post-build step (scripts/build.mjs): merges neighbouring active data segments of a wasm file
// where the zero bytes between them cost less than a segment's own header (flags, offset
// expression, size: 5-8 bytes). AssemblyScript emits one segment per static object and
// Binaryen's memory packing splits them further at zero runs, leaving hundreds of small segments.
// The memory image after instantiation is byte-identical (the gaps are zero either way, and no
// segment is passive, so no memory.init or data.drop names a segment index). Files with passive
// segments or non-constant offsets are left as they are.
import fs from "node:fs";

function uleb(b, i) {
  let r = 0;
  let shift = 0;
  for (;;) {
    const x = b[i++];
    r += (x & 0x7f) * 2 ** shift;
    shift += 7;
    if (x < 0x80) return [r, i];
  }
}

function sleb(b, i) {
  let r = 0;
  let shift = 0;
  for (;;) {
    const x = b[i++];
    r |= (x & 0x7f) << shift;
    shift += 7;
    if (x < 0x80) return [x & 0x40 && shift < 32 ? r | (-1 << shift) : r, i];
  }
}

function ulebBytes(v) {
  const out = [];
  do {
    let x = v & 0x7f;
    v >>>= 7;
    if (v) x |= 0x80;
    out.push(x);
  } while (v);
  return out;
}

function slebBytes(v) {
  const out = [];
  for (;;) {
    const x = v & 0x7f;
    v >>= 7;
    if ((v === 0 && !(x & 0x40)) || (v === -1 && x & 0x40)) return [...out, x];
    out.push(x | 0x80);
  }
}

/** Bytes of one active segment at `offset` with `data`. */
function segment(offset, data) {
  return [0, 0x41, ...slebBytes(offset), 0x0b, ...ulebBytes(data.length), ...data];
}

/** The cheapest grouping of sorted segments into runs (dynamic programming over run starts). */
function merge(segs) {
  const cost = (j, i) => {
    const start = segs[j].offset;
    const end = segs[i].offset + segs[i].data.length;
    return 4 + slebBytes(start).length + ulebBytes(end - start).length + (end - start);
  };
  const best = [0];
  const from = [0];
  for (let i = 1; i <= segs.length; i++) {
    best[i] = Infinity;
    for (let j = i - 1; j >= 0; j--) {
      // a run [j, i) never holds a gap longer than 64 zero bytes: a header is cheaper
      if (j < i - 1 && segs[j + 1].offset - (segs[j].offset + segs[j].data.length) > 64) break;
      const c = best[j] + cost(j, i - 1);
      if (c < best[i]) [best[i], from[i]] = [c, j];
    }
  }
  const runs = [];
  for (let i = segs.length; i > 0; i = from[i]) {
    const j = from[i];
    const start = segs[j].offset;
    const data = new Uint8Array(segs[i - 1].offset + segs[i - 1].data.length - start);
    for (let k = j; k < i; k++) data.set(segs[k].data, segs[k].offset - start);
    runs.unshift({ offset: start, data });
  }
  return runs;
}

/** Rewrites `file` in place; returns [bytes before, bytes after]. */
export function packData(file) {
  const b = fs.readFileSync(file);
  const sections = [];
  for (let i = 8; i < b.length;) {
    const id = b[i];
    const [size, body] = uleb(b, i + 1);
    sections.push({ id, start: i, body, end: body + size });
    i = body + size;
  }
  const data = sections.find((s) => s.id === 11);
  if (!data) return [b.length, b.length];
  const segs = [];
  let [count, p] = uleb(b, data.body);
  for (let n = 0; n < count; n++) {
    const [flags, q] = uleb(b, p);
    if (flags !== 0 || b[q] !== 0x41) return [b.length, b.length];
    const [offset, r] = sleb(b, q + 1);
    if (b[r] !== 0x0b) return [b.length, b.length];
    const [size, d] = uleb(b, r + 1);
    segs.push({ offset, data: b.subarray(d, d + size) });
    p = d + size;
  }
  segs.sort((x, y) => x.offset - y.offset);
  for (let k = 1; k < segs.length; k++)
    if (segs[k].offset < segs[k - 1].offset + segs[k - 1].data.length) return [b.length, b.length];
  const runs = merge(segs);
  const out = [];
  for (const s of sections) {
    if (s.id === 11) {
      const body = [...ulebBytes(runs.length), ...runs.flatMap((r) => segment(r.offset, r.data))];
      out.push(Buffer.from([11, ...ulebBytes(body.length), ...body]));
    } else if (s.id === 12) {
      const body = ulebBytes(runs.length);
      out.push(Buffer.from([12, ...ulebBytes(body.length), ...body]));
    } else out.push(b.subarray(s.start, s.end));
  }
  const packed = Buffer.concat([b.subarray(0, 8), ...out]);
  fs.writeFileSync(file, packed);
  return [b.length, packed.length];
}
