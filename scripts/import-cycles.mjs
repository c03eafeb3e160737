// Fails when the AssemblyScript sources import each other in a cycle: each module's relative
// imports (`import ... from "./x"`, `export ... from "../y"`) are followed, and every strongly
// connected group of more than one file (or a file importing itself) is printed with one cycle in it.
// `npm run lint` runs it over assembly/; an argument names another directory.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.resolve(root, process.argv[2] ?? "assembly");

function sources(d) {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

// Relative specifiers of import and export-from statements (comments removed first).
const SPECIFIER = /\b(?:import|export)\s+(?:[^;"']*?\bfrom\s*)?["'](\.{1,2}\/[^"']*)["']/g;
function imports(file) {
  const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  const found = new Set();
  for (const [, spec] of text.matchAll(SPECIFIER)) {
    const base = path.resolve(path.dirname(file), spec);
    const target = [base + ".ts", base, path.join(base, "index.ts")].find(
      (p) => fs.existsSync(p) && fs.statSync(p).isFile(),
    );
    // assembly/generated/ before the first build: generated files import no module that imports them
    if (!target && base.split(path.sep).includes("generated")) continue;
    if (!target) throw new Error(`${path.relative(root, file)}: cannot resolve "${spec}"`);
    found.add(target);
  }
  return [...found];
}

const files = sources(dir);
const graph = new Map(files.map((f) => [f, imports(f).filter((t) => t.startsWith(dir + path.sep))]));

// Tarjan's strongly connected components.
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const groups = [];
function visit(v) {
  order.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!order.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), order.get(w)));
  }
  if (low.get(v) === order.get(v)) {
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v).includes(v)) groups.push(group);
  }
}
for (const f of files) if (!order.has(f)) visit(f);

// One cycle through a group: a breadth-first path from its first file back to itself.
function cycle(group) {
  const members = new Set(group);
  const start = [...group].sort()[0];
  const from = new Map();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (!members.has(w)) continue;
      if (w === start) {
        const between = [];
        for (let u = v; u !== start; u = from.get(u)) between.unshift(u);
        return [start, ...between, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const name = (f) => path.relative(root, f);
if (groups.length > 0) {
  console.error(`import cycles in ${name(dir)}/: ${groups.length} group(s)`);
  for (const g of groups) {
    console.error(`- ${g.length} files: ${g.map(name).sort().join(", ")}`);
    console.error(`  cycle: ${cycle(g).map(name).join(" -> ")}`);
  }
  process.exit(1);
}
console.log(`no import cycles in ${name(dir)}/ (${files.length} files)`);
