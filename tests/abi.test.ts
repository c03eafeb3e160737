// The host ABI is declared three times: in AssemblyScript (assembly/host/imports.ts for the imports,
// assembly/main.ts for the exports), in C (native/include/tessera_host.h) and in TypeScript
// (host/src/abi.ts). This test reads the real build/controller.wasm (and its debug build) with its
// own binary parser and checks that all three declarations agree with each other and with it,
// signature for signature. It also checks build/panel.wasm against assembly/panel/imports.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  CORE_IMPORTS,
  CORE_EXPORTS,
  IMPORT_MODULE,
  METHOD_CODES,
  STORE_MISSING,
  STORE_IO_ERROR,
  STORE_FULL,
  HTTP_LENGTH_UNKNOWN,
} from "../host/src/abi.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const read = (p: string) => fs.readFileSync(path.join(ROOT, p));
const readText = (p: string) => read(p).toString("utf8");

/** A function signature as text, e.g. "(i32, i32) -> (i32)". */
type Sig = string;
const fmt = (params: readonly string[], results: readonly string[]): Sig =>
  `(${params.join(", ")}) -> (${results.join(", ")})`;
type SigMap = Map<string, Sig>;

// ---- (a) a WebAssembly binary parser: type, import, function and export sections ---------------

interface WasmImport {
  module: string;
  name: string;
  kind: "func" | "table" | "memory" | "global" | "tag";
  sig?: Sig;
}
interface WasmExport {
  name: string;
  kind: "func" | "table" | "memory" | "global" | "tag";
  sig?: Sig;
}
interface WasmModule {
  imports: WasmImport[];
  exports: WasmExport[];
}

const VALTYPES: Record<number, string> = {
  0x7f: "i32",
  0x7e: "i64",
  0x7d: "f32",
  0x7c: "f64",
  0x7b: "v128",
  0x70: "funcref",
  0x6f: "externref",
};
const KINDS = ["func", "table", "memory", "global", "tag"] as const;

class Reader {
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly end = bytes.length,
  ) {}
  byte(): number {
    if (this.pos >= this.end) throw new Error(`wasm: unexpected end at ${this.pos}`);
    return this.bytes[this.pos++];
  }
  /** Unsigned LEB128, at most 5 bytes and 32 bits. */
  u32(): number {
    let result = 0;
    for (let i = 0; i < 5; i++) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** (7 * i);
      if ((b & 0x80) === 0) {
        if (result > 0xffffffff) throw new Error("wasm: LEB128 u32 out of range");
        return result;
      }
    }
    throw new Error("wasm: LEB128 u32 longer than 5 bytes");
  }
  name(): string {
    const n = this.u32();
    const s = Buffer.from(this.bytes.subarray(this.pos, this.pos + n)).toString("utf8");
    this.pos += n;
    return s;
  }
  valtype(): string {
    const b = this.byte();
    const t = VALTYPES[b];
    if (!t) throw new Error(`wasm: unknown value type 0x${b.toString(16)}`);
    return t;
  }
  limits(): void {
    const flags = this.byte();
    this.u32(); // minimum
    if (flags & 1) this.u32(); // maximum
  }
}

function parseWasm(bytes: Uint8Array): WasmModule {
  const r = new Reader(bytes);
  const magic = [r.byte(), r.byte(), r.byte(), r.byte()];
  assert.deepEqual(magic, [0x00, 0x61, 0x73, 0x6d], "wasm magic");
  const version = r.byte() | (r.byte() << 8) | (r.byte() << 16) | (r.byte() << 24);
  assert.equal(version, 1, "wasm version");

  const types: Sig[] = [];
  const imports: WasmImport[] = [];
  const importedFuncTypes: number[] = [];
  const funcTypes: number[] = [];
  const rawExports: Array<{ name: string; kind: WasmExport["kind"]; index: number }> = [];

  while (r.pos < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    const end = r.pos + size;
    const s = new Reader(bytes, end);
    s.pos = r.pos;
    switch (id) {
      case 1: // type
        for (let n = s.u32(); n > 0; n--) {
          const form = s.byte();
          if (form !== 0x60) throw new Error(`wasm: unsupported type form 0x${form.toString(16)}`);
          const params = Array.from({ length: s.u32() }, () => s.valtype());
          const results = Array.from({ length: s.u32() }, () => s.valtype());
          types.push(fmt(params, results));
        }
        break;
      case 2: // import
        for (let n = s.u32(); n > 0; n--) {
          const module = s.name();
          const name = s.name();
          const kind = KINDS[s.byte()];
          if (kind === "func") {
            const t = s.u32();
            importedFuncTypes.push(t);
            imports.push({ module, name, kind, sig: types[t] });
          } else {
            if (kind === "table") {
              s.byte(); // reftype
              s.limits();
            } else if (kind === "memory") s.limits();
            else if (kind === "global") {
              s.valtype();
              s.byte(); // mutability
            } else if (kind === "tag") {
              s.byte(); // attribute
              s.u32(); // type index
            } else throw new Error("wasm: unknown import kind");
            imports.push({ module, name, kind });
          }
        }
        break;
      case 3: // function
        for (let n = s.u32(); n > 0; n--) funcTypes.push(s.u32());
        break;
      case 7: // export
        for (let n = s.u32(); n > 0; n--) {
          const name = s.name();
          const kind = KINDS[s.byte()];
          if (!kind) throw new Error("wasm: unknown export kind");
          rawExports.push({ name, kind, index: s.u32() });
        }
        break;
    }
    if (id >= 1 && id <= 3 && s.pos !== end) throw new Error(`wasm: section ${id} has ${end - s.pos} stray bytes`);
    r.pos = end;
  }
  const funcType = (index: number) =>
    index < importedFuncTypes.length ? importedFuncTypes[index] : funcTypes[index - importedFuncTypes.length];
  const exports = rawExports.map(({ name, kind, index }): WasmExport => {
    if (kind !== "func") return { name, kind };
    const t = funcType(index);
    if (t === undefined || types[t] === undefined) throw new Error(`wasm: export ${name} has no type`);
    return { name, kind, sig: types[t] };
  });
  return { imports, exports };
}

// ---- (b) the AssemblyScript declarations ------------------------------------------------------

const AS_TYPES: Record<string, string> = {
  u8: "i32",
  u16: "i32",
  u32: "i32",
  i8: "i32",
  i16: "i32",
  i32: "i32",
  usize: "i32",
  isize: "i32",
  bool: "i32",
  u64: "i64",
  i64: "i64",
  f32: "f32",
  f64: "f64",
};

function asType(t: string, where: string): string {
  const w = AS_TYPES[t];
  if (!w) throw new Error(`${where}: no wasm mapping for AssemblyScript type "${t}"`);
  return w;
}

function asSig(args: string, ret: string, where: string): Sig {
  const params = args
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a.length > 0)
    .map((a) => {
      const m = /^\w+\s*:\s*(\w+)$/.exec(a);
      if (!m) throw new Error(`${where}: cannot read parameter "${a}"`);
      return asType(m[1], where);
    });
  return fmt(params, ret === "void" ? [] : [asType(ret, where)]);
}

/** Every `@external("module", "name") export declare function name(args): ret;` line of a file. */
/** A function's name in the image: the core's are its ABI name without `host_` or `core_`. */
const wasmName = (name: string): string => name.slice(5);

function parseAsImports(file: string, module: string, prefix = ""): SigMap {
  const out: SigMap = new Map();
  const re =
    /^@external\("([^"]+)",\s*"([^"]+)"\)\s*export\s+declare\s+function\s+(\w+)\s*\(([^)]*)\)\s*:\s*(\w+)\s*;$/;
  for (const [n, line] of readText(file).split("\n").entries()) {
    if (line.trim().startsWith("//")) continue;
    if (!line.includes("@external") && !/\bdeclare\s+function\b/.test(line)) continue;
    const where = `${file}:${n + 1}`;
    const m = re.exec(line.trim());
    assert.ok(m, `${where}: not a one-line @external declaration: ${line}`);
    const [, mod, name, fn, args, ret] = m;
    assert.equal(mod, module, `${where}: module`);
    assert.equal(fn, prefix + name, `${where}: the function is named like its import`);
    assert.ok(!out.has(fn), `${where}: ${fn} declared twice`);
    out.set(fn, asSig(args, ret, where));
  }
  return out;
}

/** Every function of the core's entry file's one `export { core_name as name, ... }` list, by its ABI
 * name (`core_name(args): ret`, a function of the file). */
function parseAsExports(file: string): SigMap {
  const out: SigMap = new Map();
  const text = readText(file);
  // Anything else exported from the entry file would become a wasm export too.
  const statements = [...text.matchAll(/^export\b.*$/gm)].map((m) => m[0]);
  assert.deepEqual(statements, ["export {"], `${file} exports one list`);
  const list = /^export \{([^}]*)\};$/m.exec(text)?.[1] ?? "";
  for (const m of list.matchAll(/(\w+) as (\w+)/g)) {
    const [, fn, name] = m;
    assert.equal(name, wasmName(fn), `${file}: ${fn} exported as ${name}`);
    assert.ok(fn.startsWith("core_"), `${file}: export ${fn} is core_*`);
    assert.ok(!out.has(fn), `${file}: ${fn} exported twice`);
    const def = new RegExp(`^function\\s+${fn}\\s*\\(([^)]*)\\)\\s*:\\s*(\\w+)`, "m").exec(text);
    assert.ok(def, `${file}: ${fn} is a function of the file`);
    out.set(fn, asSig(def[1], def[2], `${file}: ${fn}`));
  }
  return out;
}

// ---- (c) the C header -------------------------------------------------------------------------

const C_TYPES: Record<string, string> = {
  uint32_t: "i32",
  int32_t: "i32",
  uint64_t: "i64",
  int64_t: "i64",
  float: "f32",
  double: "f64",
};

interface Header {
  imports: SigMap;
  exports: SigMap;
  defines: Map<string, string>;
}

function parseHeader(file: string): Header {
  const text = readText(file)
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\/\/.*$/gm, "");
  const defines = new Map<string, string>();
  for (const m of text.matchAll(/^\s*#\s*define\s+(\w+)[ \t]+(.+?)\s*$/gm)) defines.set(m[1], m[2]);
  const imports: SigMap = new Map();
  const exports: SigMap = new Map();
  const code = text.replace(/^\s*#.*$/gm, "").replace(/extern\s+"C"\s*\{|^\s*\}\s*$/gm, "");
  for (const stmt of code.split(";").map((s) => s.replace(/\s+/g, " ").trim())) {
    if (stmt.length === 0) continue;
    const m = /^(\w+) (\w+) ?\(([^)]*)\)$/.exec(stmt);
    assert.ok(m, `${file}: not a flat prototype: "${stmt}"`);
    const [, ret, name, args] = m;
    const where = `${file}: ${name}`;
    const ctype = (t: string) => {
      const w = C_TYPES[t];
      if (!w) throw new Error(`${where}: no wasm mapping for C type "${t}"`);
      return w;
    };
    const params =
      args.trim() === "void"
        ? []
        : args.split(",").map((a) => {
            const p = /^\s*(\w+) \w+\s*$/.exec(a);
            if (!p) throw new Error(`${where}: cannot read parameter "${a}"`);
            return ctype(p[1]);
          });
    const sig = fmt(params, ret === "void" ? [] : [ctype(ret)]);
    const target = name.startsWith("host_") ? imports : name.startsWith("core_") ? exports : null;
    assert.ok(target, `${where}: C names are host_* (imports) or core_* (exports)`);
    assert.ok(!target.has(name), `${where}: declared twice`);
    target.set(name, sig);
  }
  return { imports, exports, defines };
}

// ---- (d) the TypeScript tables ----------------------------------------------------------------

function tsSigs(table: Record<string, { params: readonly string[]; results: readonly string[] }>): SigMap {
  return new Map(Object.entries(table).map(([name, s]) => [name, fmt(s.params, s.results)]));
}

const sorted = (m: SigMap) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

// ---- the checks -------------------------------------------------------------------------------

const AS_IMPORTS = parseAsImports("assembly/host/imports.ts", "t", "host_");
const AS_EXPORTS = parseAsExports("assembly/main.ts");
const HEADER = parseHeader("native/include/tessera_host.h");
const TS_IMPORTS = tsSigs(CORE_IMPORTS);
const TS_EXPORTS = tsSigs(CORE_EXPORTS);

test("the parsers read something", () => {
  // Guards against a parser silently matching nothing.
  assert.ok(AS_IMPORTS.size >= 10, `imports.ts: ${AS_IMPORTS.size} imports`);
  assert.ok(AS_EXPORTS.size >= 5, `main.ts: ${AS_EXPORTS.size} exports`);
  assert.equal(AS_IMPORTS.get("host_store_read"), "(i32, i32, i32, i32, i32) -> (i32)");
  assert.equal(AS_IMPORTS.get("host_http_head"), "(i32, i32, i32) -> ()");
  assert.equal(AS_EXPORTS.get("core_tick"), "() -> (i32)");
  assert.equal(HEADER.imports.get("host_clock_ms"), "() -> (i32)");
  assert.equal(HEADER.exports.get("core_http_begin"), "(i32, i32, i32, i32) -> (i32)");
});

test("the three declared import sets are identical, names and signatures", () => {
  for (const [name, sig] of AS_IMPORTS) assert.ok(name.startsWith("host_"), `import ${name} (${sig}) is host_*`);
  assert.deepEqual(sorted(HEADER.imports), sorted(AS_IMPORTS), "C header vs assembly/host/imports.ts");
  assert.deepEqual(sorted(TS_IMPORTS), sorted(AS_IMPORTS), "host/src/abi.ts CORE_IMPORTS vs assembly/host/imports.ts");
});

test("the three declared export sets are identical, names and signatures", () => {
  for (const name of AS_EXPORTS.keys()) assert.ok(name.startsWith("core_"), `export ${name} is core_*`);
  assert.deepEqual(sorted(HEADER.exports), sorted(AS_EXPORTS), "C header vs assembly/main.ts");
  assert.deepEqual(sorted(TS_EXPORTS), sorted(AS_EXPORTS), "host/src/abi.ts CORE_EXPORTS vs assembly/main.ts");
});

/** A WAMR signature, "(ii)i", as text. */
const wamrSig = (params: string, result: string): Sig =>
  fmt(
    [...params].map(() => "i32"),
    result ? ["i32"] : [],
  );

/** The core's imports as the C side has them, one table for all: X(name, v|i, arity) in TESSERA_HOST_IMPORTS. */
const HOST_IMPORTS_H = "native/include/tessera_host_imports.h";
function parseHostImports(file: string): SigMap {
  const out: SigMap = new Map();
  for (const m of readText(file).matchAll(/\bX\((\w+), ([vi]), (\d)\)/g)) {
    assert.ok(!out.has(m[1]), `${file}: ${m[1]} twice`);
    out.set(`host_${m[1]}`, wamrSig("i".repeat(Number(m[3])), m[2] === "i" ? "i" : ""));
  }
  return out;
}

/** The core's exports as the C side has them, one table for all: X(ID, name, "(ii)i") in TESSERA_CORE_EXPORTS. */
const CORE_EXPORTS_H = "native/include/tessera_core_exports.h";
function parseCoreExports(file: string): SigMap {
  const out: SigMap = new Map();
  for (const m of readText(file).matchAll(/\bX\((\w+), (\w+), "\((i*)\)(i?)"\)/g)) {
    assert.ok(!out.has(`core_${m[2]}`), `${file}: ${m[2]} twice`);
    out.set(`core_${m[2]}`, wamrSig(m[3], m[4]));
  }
  return out;
}

test("the C tables of imports and exports (a self-update's check, the runtime adapters) match the core", () => {
  const imports = parseHostImports(HOST_IMPORTS_H);
  const exports = parseCoreExports(CORE_EXPORTS_H);
  assert.ok(imports.size >= 10 && exports.size >= 5, "the tables were read");
  assert.deepEqual(sorted(imports), sorted(AS_IMPORTS), `${HOST_IMPORTS_H} vs assembly/host/imports.ts`);
  assert.deepEqual(sorted(exports), sorted(AS_EXPORTS), `${CORE_EXPORTS_H} vs assembly/main.ts`);
});

test("every C list of the core's imports and exports is a table's, none written out again", () => {
  // image.c checks a self-update against both; the adapters bind the imports and look the exports up
  const adapters = [
    "native/runtime/wamr/runtime.c",
    "native/runtime/wasm3/runtime.c",
    "native/runtime/wasm2c/core_module.c",
  ];
  for (const file of ["native/src/image.c", ...adapters]) {
    const text = readText(file);
    assert.match(text, /#include "tessera_host_imports\.h"/, `${file} includes the imports' table`);
    assert.match(text, /TESSERA_HOST_IMPORTS\(\w+\)/, `${file} builds its imports from TESSERA_HOST_IMPORTS`);
    assert.deepEqual(text.match(/"host_\w+"|Z_tZ_\w+/g) ?? [], [], `${file} names no import of its own`);
    if (file.includes("wasm2c")) continue; // wasm2c calls the exports by their generated names
    assert.match(text, /#include "tessera_core_exports\.h"/, `${file} includes the exports' table`);
    assert.match(text, /\{TESSERA_CORE_EXPORTS\(\w+\)/, `${file} builds its list from TESSERA_CORE_EXPORTS`);
    assert.deepEqual(text.match(/"core_\w+"/g) ?? [], [], `${file} names no export in a string of its own`);
  }
});

test("the C header's constants match host/src/abi.ts and the ABI document", () => {
  const d = HEADER.defines;
  assert.equal(d.get("TESSERA_IMPORT_MODULE"), JSON.stringify(IMPORT_MODULE));
  assert.equal(IMPORT_MODULE, "t");
  const methods: Record<string, number> = { OTHER: 0, GET: 1, HEAD: 2, POST: 3, PUT: 4, PATCH: 5, DELETE: 6 };
  for (const [m, code] of Object.entries(methods)) {
    assert.equal(d.get(`TESSERA_METHOD_${m}`), String(code), `TESSERA_METHOD_${m}`);
    if (m !== "OTHER") assert.equal(METHOD_CODES[m], code, `METHOD_CODES.${m}`);
  }
  const num = (name: string) => Number(d.get(name)?.replace(/^\((.*)\)$/, "$1"));
  assert.equal(num("TESSERA_STORE_MISSING"), STORE_MISSING);
  assert.equal(num("TESSERA_STORE_IO_ERROR"), STORE_IO_ERROR);
  assert.equal(num("TESSERA_STORE_FULL"), STORE_FULL);
  assert.deepEqual([STORE_MISSING, STORE_IO_ERROR, STORE_FULL], [-1, -2, -3]);
  assert.equal(Number(d.get("TESSERA_HTTP_LENGTH_UNKNOWN")?.replace(/u$/, "")), HTTP_LENGTH_UNKNOWN);
});

for (const file of ["build/controller.wasm", "build/controller.debug.wasm"]) {
  const wasm = parseWasm(read(file));

  test(`${file}: the parser agrees with WebAssembly.Module on names`, () => {
    const mod = new WebAssembly.Module(read(file));
    assert.deepEqual(
      wasm.imports.map((i) => `${i.module}.${i.name}:${i.kind}`),
      WebAssembly.Module.imports(mod).map((i) => `${i.module}.${i.name}:${i.kind === "function" ? "func" : i.kind}`),
    );
    assert.deepEqual(
      wasm.exports.map((e) => `${e.name}:${e.kind}`),
      WebAssembly.Module.exports(mod).map((e) => `${e.name}:${e.kind === "function" ? "func" : e.kind}`),
    );
  });

  test(`${file}: imports only declared functions from "t", nothing from "env"`, (t) => {
    assert.deepEqual(
      wasm.imports.filter((i) => i.module === "env").map((i) => i.name),
      [],
      'no env imports (abort, seed, trace): the core must use its own "t" imports',
    );
    for (const i of wasm.imports) {
      assert.equal(i.module, "t", `${i.module}.${i.name}: module`);
      assert.equal(i.kind, "func", `${i.name}: kind`);
      assert.ok(AS_IMPORTS.has(`host_${i.name}`), `${i.name}: imported by the wasm but not declared`);
      assert.equal(i.sig, AS_IMPORTS.get(`host_${i.name}`), `${i.name}: signature in the wasm vs the declarations`);
    }
    const used = new Set(wasm.imports.map((i) => `host_${i.name}`));
    const unused = [...AS_IMPORTS.keys()].filter((n) => !used.has(n));
    t.diagnostic(`${used.size} of ${AS_IMPORTS.size} declared imports used; unused: ${unused.join(", ") || "none"}`);
  });

  test(`${file}: exports exactly the declared core_* functions and memory`, () => {
    const memory = wasm.exports.filter((e) => e.kind === "memory").map((e) => e.name);
    assert.deepEqual(memory, ["memory"], "one memory export, named memory");
    const funcs = wasm.exports.filter((e) => e.name !== "memory");
    for (const e of funcs) assert.equal(e.kind, "func", `${e.name}: only functions besides memory`);
    const actual: SigMap = new Map(funcs.map((e) => [`core_${e.name}`, e.sig!]));
    assert.deepEqual(sorted(actual), sorted(AS_EXPORTS), "wasm exports vs assembly/main.ts");
    assert.deepEqual(sorted(actual), sorted(HEADER.exports), "wasm exports vs the C header");
    assert.deepEqual(sorted(actual), sorted(TS_EXPORTS), "wasm exports vs host/src/abi.ts");
    assert.deepEqual(sorted(actual), sorted(parseCoreExports(CORE_EXPORTS_H)), `wasm exports vs ${CORE_EXPORTS_H}`);
  });
}

test("build/panel.wasm imports only tessera_panel.panel_tx, panel_linked and what panel/imports.ts declares", () => {
  const declared = parseAsImports("assembly/panel/imports.ts", "tessera_panel");
  assert.equal(declared.get("panel_tx"), "(i32, i32, i32) -> ()");
  assert.equal(declared.get("panel_linked"), "(i32) -> (i32)");
  for (const file of ["build/panel.wasm", "build/panel.debug.wasm"]) {
    const wasm = parseWasm(read(file));
    const names = wasm.imports.map((i) => `${i.module}.${i.name}`);
    assert.ok(names.includes("tessera_panel.panel_tx"), `${file}: imports panel_tx`);
    assert.ok(names.includes("tessera_panel.panel_linked"), `${file}: imports panel_linked`);
    for (const i of wasm.imports) {
      assert.equal(i.module, "tessera_panel", `${file}: ${i.module}.${i.name}: module`);
      assert.equal(i.kind, "func", `${file}: ${i.name}: kind`);
      assert.equal(i.sig, declared.get(i.name), `${file}: ${i.name}: declared in assembly/panel/imports.ts`);
    }
    assert.ok(
      wasm.exports.some((e) => e.name === "memory" && e.kind === "memory"),
      `${file}: exports its memory`,
    );
  }
});

function findCompiler(): string | null {
  for (const cc of [process.env.CC, "cc", "gcc", "clang"]) {
    if (!cc) continue;
    try {
      execFileSync(cc, ["--version"], { stdio: "ignore" });
      return cc;
    } catch {
      // try the next one
    }
  }
  return null;
}

const cc = findCompiler();
test("the C header compiles cleanly as C11", { skip: cc ? false : "no C compiler (cc, gcc, clang) on PATH" }, () => {
  execFileSync(
    cc!,
    ["-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-x", "c", "native/include/tessera_host.h"],
    { cwd: ROOT, stdio: "pipe" },
  );
});
