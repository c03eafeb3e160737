// Post-build step (scripts/reoptimize.mjs, controller release only): the module's least used globals
// become words of static memory below 1024, where AssemblyScript places nothing (with
// optimizeLevel >= 2 its static data starts at 1024 and Binaryen is told that low memory is unused).
//
// Why: WAMR keeps every global as a `WASMGlobal` and a `WASMGlobalInstance`, about 52 B of device heap
// each (docs/device-memory.md, "What each thing in the image costs WAMR"), while a word of linear memory costs
// the heap nothing (the page is there anyway). An access costs more code instead: `global.get` is 2 or
// 3 bytes, `i32.load offset=A (i32.const 0)` 5 or 6. So only globals read and written at few places
// move: a global with `a` accesses saves 52 B + its declaration and costs about 3a B of code.
//
// The rewrite is on Binaryen's text, where an access is one folded expression: `(global.get $g)` becomes
// a load, and `(global.set $g VALUE)` a store whose address comes before the same VALUE. A global's
// initial value becomes a data segment (zeros need none). No global is exported or imported here
// (the build fails otherwise), and nothing else in the module names a global but its accesses.
import binaryen from "binaryen";

/** Low memory given to globals: [FIRST, END). 0-7 stay unused (a null pointer's first fields). */
const FIRST = 8;
const END = 1024;

const TYPES = {
  i32: { size: 4, load: "i32.load", store: "i32.store" },
  f32: { size: 4, load: "f32.load", store: "f32.store" },
  i64: { size: 8, load: "i64.load", store: "i64.store" },
  f64: { size: 8, load: "f64.load", store: "f64.store" },
};

/**
 * Returns a new module in which each mutable global with at most `maxUses` accesses (gets and sets,
 * counted in the code) is a word of static memory; `module` is disposed. `features` are set on the new one.
 */
export function staticGlobals(module, maxUses, features) {
  let text = module.emitText();
  module.dispose();
  const declaration = /^ \(global (\$\S+) \(mut (i32|i64|f32|f64)\) \((i32|i64|f32|f64)\.const (\S+)\)\)\n/gm;
  const globals = new Map();
  for (const [, name, type, , value] of text.matchAll(declaration)) globals.set(name, { type, value, uses: 0 });
  for (const [, name] of text.matchAll(/\(global\.[gs]et (\$\S+?)[\s)]/g)) {
    const g = globals.get(name);
    if (g) g.uses++;
  }
  if (/\(export "[^"]*" \(global /.test(text) || /\(import "[^"]*" "[^"]*" \(global /.test(text))
    throw new Error("static-globals: an exported or imported global; this step assumes none");

  // the most used first, so that they get the low addresses (one byte of offset below 128); 8-byte
  // values after the 4-byte ones, aligned
  const moved = [...globals].filter(([, g]) => g.uses <= maxUses);
  moved.sort(([, a], [, b]) => TYPES[a.type].size - TYPES[b.type].size || b.uses - a.uses);
  let at = FIRST;
  const init = [];
  for (const [, g] of moved) {
    const size = TYPES[g.type].size;
    at = Math.ceil(at / size) * size;
    g.address = at;
    at += size;
    if (at > END) throw new Error("static-globals: low memory is full");
    const bytes = Buffer.alloc(size);
    if (g.type === "i32") bytes.writeInt32LE(Number(g.value));
    else if (g.type === "i64") bytes.writeBigInt64LE(BigInt(g.value));
    else if (g.type === "f32") bytes.writeFloatLE(Number(g.value));
    else bytes.writeDoubleLE(Number(g.value));
    if (bytes.some((b) => b !== 0)) init.push([g.address, bytes]);
  }
  const isMoved = (name) => globals.get(name)?.address !== undefined;
  text = text.replace(declaration, (line, name) => (isMoved(name) ? "" : line));
  text = text.replace(/\(global\.get (\$\S+?)\)/g, (access, name) => {
    if (!isMoved(name)) return access;
    const g = globals.get(name);
    return `(${TYPES[g.type].load} offset=${g.address} (i32.const 0))`;
  });
  text = text.replace(/\(global\.set (\$\S+?)([\s)])/g, (access, name, after) => {
    if (!isMoved(name)) return access;
    const g = globals.get(name);
    return `(${TYPES[g.type].store} offset=${g.address} (i32.const 0)${after}`;
  });
  const escape = (bytes) => [...bytes].map((b) => "\\" + b.toString(16).padStart(2, "0")).join("");
  const segments = init.map(([address, bytes]) => ` (data (i32.const ${address}) "${escape(bytes)}")\n`);
  text = text.replace(/\n\)\s*$/, "\n" + segments.join("") + ")\n");
  const out = binaryen.parseText(text);
  out.setFeatures(features);
  return { module: out, moved: moved.length };
}
