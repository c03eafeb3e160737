// Where the bytes of build/controller.wasm go: compiles the release target once more with a name
// section (`--debug` adds names only: the code section is the same size) and prints the sections,
// the code by area (source folder), the biggest functions and the biggest static data (before
// scripts/pack-data.mjs merges it). By default asc's output, whose functions still map to their
// sources; with --final re-optimised as scripts/build.mjs does (smaller, but one-caller functions
// are merged into their callers). Usage: node scripts/size-report.mjs [top=25] [--final]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reoptimize } from "./reoptimize.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const top = Number(args.find((a) => /^\d+$/.test(a)) ?? 25);
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "size-")), "named.wasm");
execFileSync(
  process.execPath,
  [
    path.join(root, "node_modules/assemblyscript/bin/asc.js"),
    ...["--config", "asconfig.json", "--target", "release", "--transform", "./scripts/messages-transform.mjs"],
    ...["--debug", "-o", out],
  ],
  { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
);
if (args.includes("--final")) reoptimize(out, true);
const b = fs.readFileSync(out);
fs.rmSync(path.dirname(out), { recursive: true });

let pos = 0;
function uleb() {
  let r = 0;
  for (let shift = 0; ; shift += 7) {
    const x = b[pos++];
    r += (x & 0x7f) * 2 ** shift;
    if (x < 0x80) return r;
  }
}
const str = () => {
  const n = uleb();
  return b.toString("utf8", pos, (pos += n));
};

const SECTION_NAMES = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start"];
Object.assign(SECTION_NAMES, { 9: "element", 10: "code", 11: "data", 12: "datacount" });
const sections = [];
let imports = 0;
const bodies = []; // [size] in function index order (after imports)
const segments = []; // {offset, data}
const names = new Map();
for (pos = 8; pos < b.length;) {
  const id = b[pos++];
  const size = uleb();
  const end = pos + size;
  if (id === 0) {
    if (str() === "name")
      while (pos < end) {
        const sub = b[pos++];
        const subEnd = uleb() + pos;
        if (sub === 1) for (let n = uleb(); n > 0; n--) names.set(uleb(), str());
        pos = subEnd;
      }
  } else sections.push([SECTION_NAMES[id], size]);
  if (id === 2)
    for (let n = uleb(); n > 0; n--) {
      (str(), str());
      if (b[pos++] === 0) (uleb(), imports++);
      else throw new Error("only function imports expected");
    }
  if (id === 10)
    for (let n = uleb(); n > 0; n--) {
      const s = uleb();
      bodies.push(s + (s < 128 ? 1 : 2));
      pos += s;
    }
  if (id === 11)
    for (let n = uleb(); n > 0; n--) {
      uleb(); // flags: active, memory 0
      pos++; // i32.const
      let offset = 0;
      for (let shift = 0; ; shift += 7) {
        const x = b[pos++];
        offset |= (x & 0x7f) << shift;
        if (x < 0x80) break;
      }
      pos++; // end
      const len = uleb();
      segments.push({ offset, data: b.subarray(pos, (pos += len)) });
    }
  pos = end;
}

/** The area of a function name: its source folder (assembly/x/ or ~lib/x), else the name's head. */
function area(name) {
  let m = name.match(/^assembly\/([a-z]+)\//) || name.match(/^assembly\/([a-z]+)/);
  if (m) return m[1];
  m = name.match(/^~lib\/(rt|util|string|number|map|set|array|staticarray|typedarray|math|memory|dataview)/);
  if (m) return "~lib/" + m[1];
  return name.startsWith("~lib/") ? "~lib/other" : name.split(/[/<]/)[0];
}

const pad = (s, n) => String(s).padStart(n);
console.log("sections: " + sections.map(([n, s]) => `${n} ${s}`).join(", "));
const funcs = bodies.map((size, i) => ({ name: names.get(i + imports) ?? `#${i + imports}`, size }));
const byArea = new Map();
for (const f of funcs) byArea.set(area(f.name), (byArea.get(area(f.name)) ?? 0) + f.size);
console.log(`\ncode by area (${funcs.length} functions):`);
for (const [a, s] of [...byArea].sort((x, y) => y[1] - x[1])) console.log(`${pad(s, 7)}  ${a}`);
console.log(`\ntop ${top} functions:`);
for (const f of [...funcs].sort((x, y) => y.size - x.size).slice(0, top)) console.log(`${pad(f.size, 7)}  ${f.name}`);

// Static data: AssemblyScript objects have a 20-byte header (mmInfo, gcInfo, gcInfo2, rtId, rtSize)
// whose leading zeros Binaryen leaves out of the segment; rtId 2 is a String (UTF-16).
function describe(data) {
  if (data.length >= 8 && data.readUInt32LE(0) === 2 && data.readUInt32LE(4) + 8 >= data.length - 1) {
    return "string " + JSON.stringify(data.toString("utf16le", 8, 8 + data.readUInt32LE(4))).slice(0, 70);
  }
  const text = data.toString("latin1").replace(/[^\x20-\x7e]/g, ".");
  return "data " + text.slice(0, 70);
}
const total = segments.reduce((s, x) => s + x.data.length, 0);
const strings = segments.filter((s) => describe(s.data).startsWith("string"));
console.log(
  `\nstatic data: ${total} B in ${segments.length} segments (before pack-data), ` +
    `${strings.reduce((s, x) => s + x.data.length, 0)} B in ${strings.length} strings`,
);
console.log(`top ${top} data segments:`);
for (const s of [...segments].sort((x, y) => y.data.length - x.data.length).slice(0, process.env.ALL ? 1e9 : top))
  console.log(`${pad(s.data.length, 7)}  @${s.offset}  ${describe(s.data)}`);
