// Post-build step (scripts/build.mjs, controller release only): the data section as one packed stream
// that the module unpacks into static memory when it starts.
//
// The static data (strings, name lists, the message table, tables) is about 11.8 KB in some 40
// segments, and much of it is redundant: UTF-16 strings whose every other byte is 0, zero runs, and
// repeated byte sequences. Here the memory image those segments make, from the first one's start to
// the last one's end, is written as tokens (the first byte says which; n is its low 6 bits + 1):
//   0x00-0x3f  n literal bytes follow;
//   0x40-0x7f  n bytes follow, each the low byte of a 16-bit unit whose high byte is 0 (UTF-16 text);
//   0x80-0xbf  n bytes copied from a u16 distance back in what is unpacked so far (the u16 follows);
//   0xc0-0xff  zero bytes, ((c & 0x3f) << 8 | the next byte) + 1 of them (memory there is 0 already).
// The stream is one data segment above the statics (AssemblyScript's __heap_base), at the top of the
// page, where the arena has not allocated anything yet when the module starts. The start function
// becomes `~unpack`: it unpacks, zeroes the stream's bytes (the arena's memory is zero, as it was), then
// calls the old start function. Memory is byte for byte what the segments made before any other code
// runs; the build checks it by running the same unpacking here. Device heap: the RAM image does not hold
// the data section, so this saves flash and image bytes, and costs WAMR one function and its code.
import fs from "node:fs";
import binaryen from "binaryen";

const PAGE = 65536;
const MAX_RUN = 64;
const MAX_ZEROS = 1 << 14;
const MAX_DISTANCE = 0xffff;

/** The tokens of `m` (the memory image from its first data byte), chosen for the fewest bytes. */
export function packTokens(m) {
  const n = m.length;
  const zeros = new Int32Array(n + 1);
  for (let p = n - 1; p >= 0; p--) zeros[p] = m[p] === 0 ? zeros[p + 1] + 1 : 0;
  const units = new Int32Array(n + 2); // 16-bit units with a zero high byte from p
  for (let p = n - 2; p >= 0; p--) units[p] = m[p + 1] === 0 ? units[p + 2] + 1 : 0;
  // the longest earlier match at each p (4 bytes at least, never overlapping p)
  const match = new Int32Array(n);
  const from = new Int32Array(n);
  const seen = new Map();
  for (let p = 0; p + 4 <= n; p++) {
    if (zeros[p] >= 4) continue;
    const key = m[p] | (m[p + 1] << 8) | (m[p + 2] << 16) | (m[p + 3] << 24);
    const list = seen.get(key);
    if (list) {
      for (let i = list.length - 1; i >= 0 && p - list[i] <= MAX_DISTANCE; i--) {
        const q = list[i];
        let k = 0;
        while (k < MAX_RUN && p + k < n && q + k < p && m[q + k] === m[p + k]) k++;
        if (k > match[p]) [match[p], from[p]] = [k, q];
      }
      list.push(p);
    } else seen.set(key, [p]);
  }
  // the cheapest encoding of m[p..) for every p, from the end
  const cost = new Float64Array(n + 1);
  const choice = new Array(n + 1);
  for (let p = n - 1; p >= 0; p--) {
    let best = Infinity;
    let pick = null;
    const consider = (c, token) => {
      if (c < best) [best, pick] = [c, token];
    };
    for (let k = 1; k <= MAX_RUN && p + k <= n; k++) consider(1 + k + cost[p + k], ["literal", k]);
    for (let k = 1; k <= Math.min(MAX_RUN, units[p]); k++) consider(1 + k + cost[p + 2 * k], ["text", k]);
    for (let k = 4; k <= match[p]; k++) consider(3 + cost[p + k], ["copy", k, p - from[p]]);
    if (zeros[p] > 0) {
      const most = Math.min(zeros[p], MAX_ZEROS);
      consider(2 + cost[p + most], ["zeros", most]);
      for (let k = 1; k < Math.min(most, MAX_RUN); k++) consider(2 + cost[p + k], ["zeros", k]);
    }
    cost[p] = best;
    choice[p] = pick;
  }
  const out = [];
  for (let p = 0; p < n;) {
    const [kind, k, distance] = choice[p];
    if (kind === "literal") out.push(k - 1, ...m.subarray(p, p + k));
    else if (kind === "text") {
      out.push(0x40 | (k - 1));
      for (let i = 0; i < k; i++) out.push(m[p + 2 * i]);
    } else if (kind === "copy") out.push(0x80 | (k - 1), distance & 0xff, distance >> 8);
    else out.push(0xc0 | ((k - 1) >> 8), (k - 1) & 0xff);
    p += kind === "text" ? 2 * k : k;
  }
  return Uint8Array.from(out);
}

/** What `~unpack` does, on `memory` (a page): unpacks `length` bytes at `at` to `start`, zeroes them. */
export function unpack(memory, at, length, start) {
  let r = at;
  let w = start;
  while (r !== at + length) {
    const c = memory[r++];
    let n = (c & 63) + 1;
    if (c < 0x40) {
      memory.copyWithin(w, r, r + n);
      r += n;
    } else if (c < 0x80) {
      for (let i = 0; i < n; i++) [memory[w + 2 * i], memory[w + 2 * i + 1]] = [memory[r + i], 0];
      r += n;
      n *= 2;
    } else if (c < 0xc0) {
      const distance = memory[r] | (memory[r + 1] << 8);
      memory.copyWithin(w, w - distance, w - distance + n);
      r += 2;
    } else {
      n = (((c & 63) << 8) | memory[r]) + 1;
      r += 1;
    }
    w += n;
  }
  memory.fill(0, at, at + length);
}

/**
 * Rewrites the wasm `file` in place (`keepNames`: with its name section); `staticEnd` is where static
 * memory ends (__heap_base). Returns [data bytes before, stream bytes].
 */
export function packStatics(file, staticEnd, keepNames = false) {
  const module = binaryen.readBinary(fs.readFileSync(file));
  const F = binaryen.Features;
  const features = F.MutableGlobals | F.SignExt | F.NontrappingFPToInt | F.BulkMemory;
  module.setFeatures(features);
  const segments = [];
  for (let i = 0; i < module.getNumMemorySegments(); i++) {
    const s = module.getMemorySegmentInfoByIndex(i);
    if (s.passive) throw new Error("pack-statics: a passive data segment");
    segments.push({ offset: s.offset, data: new Uint8Array(s.data) });
  }
  const start = Math.min(...segments.map((s) => s.offset));
  const end = Math.max(...segments.map((s) => s.offset + s.data.length));
  if (end > staticEnd) throw new Error("pack-statics: data beyond the end of static memory");
  const image = new Uint8Array(PAGE);
  for (const s of segments) image.set(s.data, s.offset);
  const stream = packTokens(image.subarray(start, end));
  const at = PAGE - stream.length;
  if (at < staticEnd) throw new Error(`pack-statics: the stream (${stream.length} B) does not fit above ${staticEnd}`);
  // check: the module's memory at start, unpacked here, is the memory the segments made
  const check = new Uint8Array(PAGE);
  check.set(stream, at);
  unpack(check, at, stream.length, start);
  if (!Buffer.from(check).equals(Buffer.from(image))) throw new Error("pack-statics: unpacking does not give the data");

  let text = module.emitText();
  module.dispose();
  const oldStart = text.match(/^ \(start (\$\S+)\)$/m)?.[1];
  if (!oldStart) throw new Error("pack-statics: no start function");
  text = text.replace(/^ \(data .*\n/gm, "");
  const bytes = [...stream].map((b) => "\\" + b.toString(16).padStart(2, "0")).join("");
  const c = (v) => `(i32.const ${v})`;
  const get = (l) => `(local.get $unpack~${l})`;
  const add = (a, b) => `(i32.add ${a} ${b})`;
  // the unpacking, at the head of the start function (a function of its own would cost WAMR ~96 B)
  const unpackCode = `
  (local.set $unpack~r ${c(at)})
  (local.set $unpack~w ${c(start)})
  (loop $unpack~token
   (local.set $unpack~c (i32.load8_u ${get("r")}))
   (local.set $unpack~n ${add(`(i32.and ${get("c")} ${c(63)})`, c(1))})
   (local.set $unpack~r ${add(get("r"), c(1))})
   (if (i32.lt_u ${get("c")} ${c(0x40)})
    (then
     (memory.copy ${get("w")} ${get("r")} ${get("n")})
     (local.set $unpack~r ${add(get("r"), get("n"))}))
    (else
     (if (i32.lt_u ${get("c")} ${c(0x80)})
      (then
       (local.set $unpack~i ${c(0)})
       (loop $unpack~unit
        (i32.store16 ${add(get("w"), `(i32.shl ${get("i")} ${c(1)})`)} (i32.load8_u ${add(get("r"), get("i"))}))
        (br_if $unpack~unit (i32.ne (local.tee $unpack~i ${add(get("i"), c(1))}) ${get("n")})))
       (local.set $unpack~r ${add(get("r"), get("n"))})
       (local.set $unpack~n (i32.shl ${get("n")} ${c(1)})))
      (else
       (if (i32.lt_u ${get("c")} ${c(0xc0)})
        (then
         (memory.copy ${get("w")} (i32.sub ${get("w")} (i32.load16_u ${get("r")})) ${get("n")})
         (local.set $unpack~r ${add(get("r"), c(2))}))
        (else
         (local.set $unpack~n ${add(`(i32.or (i32.shl (i32.and ${get("c")} ${c(63)}) ${c(8)}) (i32.load8_u ${get("r")}))`, c(1))})
         (local.set $unpack~r ${add(get("r"), c(1))})))))))
   (local.set $unpack~w ${add(get("w"), get("n"))})
   (br_if $unpack~token (i32.ne ${get("r")} ${c(at + stream.length)})))
  (memory.fill ${c(at)} ${c(0)} ${c(stream.length)})
`;
  const name = oldStart.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const head = new RegExp(`^ \\(func ${name}( [^\\n]*)?\\n((?:  \\(local [^\\n]*\\n)*)`, "m");
  if (!head.test(text)) throw new Error("pack-statics: the start function's head is not where expected");
  const locals = ["r", "w", "c", "n", "i"].map((l) => `  (local $unpack~${l} i32)\n`).join("");
  text = text.replace(head, (whole) => whole + locals + unpackCode);
  text = text.replace(/\n\)\s*$/, `\n (data ${c(at)} "${bytes}")\n)\n`);
  const out = binaryen.parseText(text);
  out.setFeatures(features);
  binaryen.setOptimizeLevel(2);
  binaryen.setShrinkLevel(1);
  binaryen.setDebugInfo(keepNames);
  out.runPassesOnFunction(out.getFunction(oldStart.slice(1)), ["simplify-locals", "vacuum"]);
  out.runPasses(["generate-stack-ir", "optimize-stack-ir"]);
  if (!out.validate()) throw new Error(`pack-statics: ${file} does not validate`);
  fs.writeFileSync(file, out.emitBinary());
  out.dispose();
  return [segments.reduce((sum, s) => sum + s.data.length, 0), stream.length];
}
