// Post-build step (scripts/build.mjs, controller release only): Binaryen's -Os pipeline run again
// on asc's output until the binary stops shrinking. asc's own pass (-O3z, converge) leaves about
// 0.8 KB that a second pipeline at shrink level 1 still removes. Binaryen's passes keep the
// semantics; the features are the ones asc enables by default, so no new instruction appears.
// Functions of up to ALWAYS_INLINE instructions are inlined wherever they are called (Binaryen's
// default is 2): field setters and one-line accessors that -Os keeps apart each cost WAMR about 96 B
// of heap as functions, and a call is about as long as the store it makes. Measured on the release
// image: 2 -> 552 functions, 3 -> 515 (-405 B of image), 4 -> 502 (-205 B), 5 -> 481 (+433 B).
// 5 since round 3 of issue 12: on the merged core 4 -> 5 is 17 functions fewer, +369 B of image and
// -1.1 KB of device heap (the heap budget is the one the device cannot stretch). 4 since round 6, with
// STATIC_GLOBAL_USES 3, 2 since round 7 (below): the heap's room bought image bytes again.
// Then the least used globals become words of static memory (scripts/static-globals.mjs). Tried and
// not taken (docs/history/device-fit-log.md, "The whole image"): shrink level 2, optimize level 3, lowMemoryUnused,
// more rounds, and merge-similar-functions, code-folding, local-cse, simplify-globals-optimizing or
// vacuum after the rounds (the same image within 2 B, or longer).
import fs from "node:fs";
import binaryen from "binaryen";
import { staticGlobals } from "./static-globals.mjs";

const ALWAYS_INLINE = 4;

// Globals with at most this many accesses in the code become words of static memory
// (scripts/static-globals.mjs). Measured on the release image (device heap estimated as code +
// global declarations + 52 B per global): 2 -> 28 globals moved, -1.5 KB of heap, +6 B of image;
// 3 -> 56, -2.9 KB, +111 B; 4 -> 86, -4.3 KB, +305 B; 5 -> 122, -5.6 KB, +851 B. Counted by the
// bench on the merged core of round 3 (inline size 5; device heap with ESP-IDF's headers): 4 -> 193,820 B,
// 6 -> about 191,980 B (+782 B of image), 8 -> 191,361 B (+1,274 B): 8 keeps the core under its 192,000 B
// budget with some room. Round 5's merge (73,857 B at 8; heap with headers 187,199 B): 4 -> 72,659 B and
// 189,556 B; 2 -> 72,370 B but 192,364 B, over. 4 since round 5: the heap's room bought image bytes.
// Round 6's merge (uses/inline: image, heap with headers, save): 4/5 69,434 B, 185,515 B, 88.9 M; 2/5
// 69,134 B, 188,381 B, 93.3 M; 3/4 69,041 B, 188,174 B, 90.9 M (taken); 2/4 68,961 B, 189,679 B, 92.0 M. Round 7's merge:
// 3/4 65,718 B, 183,428 B, 92.4 M; 2/4 65,651 B, 184,617 B, 88.4 M (taken: the heap has room);
// 1/4 and 0/4 +17 B, 3/3 +54 B and 2/3 +16 B against 2/4 (measured on an earlier merge of the round).
const STATIC_GLOBAL_USES = 2;

/** Rewrites `file` in place (`keepNames`: with its name section); returns [bytes before, bytes after]. */
export function reoptimize(file, keepNames = false) {
  const before = fs.readFileSync(file);
  const module = binaryen.readBinary(before);
  const F = binaryen.Features;
  module.setFeatures(F.MutableGlobals | F.SignExt | F.NontrappingFPToInt | F.BulkMemory);
  binaryen.setOptimizeLevel(2);
  binaryen.setShrinkLevel(1);
  binaryen.setDebugInfo(keepNames);
  const inlineBefore = binaryen.getAlwaysInlineMaxSize();
  binaryen.setAlwaysInlineMaxSize(ALWAYS_INLINE);
  let best = before;
  for (let round = 0; round < 8; round++) {
    module.optimize();
    const out = module.emitBinary();
    if (out.length >= best.length) break;
    best = out;
  }
  binaryen.setAlwaysInlineMaxSize(inlineBefore);
  module.dispose();
  // the best round's binary, its globals moved; then Binaryen's stack IR (what optimize() ends with:
  // without it the binary written back is 130 B longer)
  const features = F.MutableGlobals | F.SignExt | F.NontrappingFPToInt | F.BulkMemory;
  const read = binaryen.readBinary(best);
  read.setFeatures(features);
  const { module: moved } = staticGlobals(read, STATIC_GLOBAL_USES, features);
  moved.runPasses(["generate-stack-ir", "optimize-stack-ir"]);
  if (!moved.validate()) throw new Error(`reoptimize: ${file} does not validate`);
  best = moved.emitBinary();
  moved.dispose();
  fs.writeFileSync(file, best);
  return [before.length, best.length];
}
