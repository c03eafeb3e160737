// Reads what the bench reports from a .wasm binary without instantiating it: the initial memory,
// the data segments (where the static data ends) and, when the name section is present (debug
// build), the value of AssemblyScript's __heap_base global, where the heap starts.
import fs from "node:fs";

export interface WasmInfo {
  bytes: number;
  /** Initial linear memory in 64 KiB pages. */
  initialPages: number;
  /** The memory's maximum in pages, or null when it has none (it could grow without bound). */
  maximumPages: number | null;
  dataSegments: number;
  dataBytes: number;
  /** One past the last byte of the active data segments. */
  dataEnd: number;
  /** __heap_base from the name section, or null when the binary has no global names. */
  heapBase: number | null;
}

const SECTION = { custom: 0, import: 2, global: 6, memory: 5, data: 11 } as const;
const IMPORT_GLOBAL = 3;
const NAME_GLOBALS = 7;
const OP_I32_CONST = 0x41;
const OP_END = 0x0b;
const HEAP_BASE = "~lib/memory/__heap_base";

class Reader {
  constructor(
    private readonly b: Uint8Array,
    public pos = 0,
  ) {}

  get done(): boolean {
    return this.pos >= this.b.length;
  }

  u8(): number {
    return this.b[this.pos++];
  }

  /** Unsigned LEB128. */
  u32(): number {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.u8();
      result += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return result;
    }
  }

  /** Signed LEB128 (32-bit). */
  s32(): number {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = this.u8();
      result |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return shift < 32 && byte & 0x40 ? result | (-1 << shift) : result;
  }

  bytes(n: number): Uint8Array {
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  name(): string {
    return Buffer.from(this.bytes(this.u32())).toString("utf8");
  }

  limits(): { min: number; max: number | null } {
    const flags = this.u8();
    const min = this.u32();
    return { min, max: flags & 1 ? this.u32() : null };
  }

  /** A constant expression: its value when it is a plain i32.const, else null. */
  constExpr(): number | null {
    const op = this.u8();
    const value = op === OP_I32_CONST ? this.s32() : null;
    while (this.u8() !== OP_END) {
      // global.get or an extended constant: not a plain number, skip to the end
    }
    return value;
  }
}

interface Section {
  id: number;
  body: Reader;
}

function sections(bytes: Uint8Array): Section[] {
  const r = new Reader(bytes, 8); // after magic and version
  const out: Section[] = [];
  while (!r.done) {
    const id = r.u8();
    const size = r.u32();
    out.push({ id, body: new Reader(r.bytes(size)) });
  }
  return out;
}

function countImportedGlobals(r: Reader): number {
  let globals = 0;
  for (let n = r.u32(); n > 0; n--) {
    r.name();
    r.name();
    const kind = r.u8();
    if (kind === 0)
      r.u32(); // function: type index
    else if (kind === 1)
      (r.u8(), r.limits()); // table: element type, limits
    else if (kind === 2)
      r.limits(); // memory
    else if (kind === IMPORT_GLOBAL) (r.u8(), r.u8(), globals++); // value type, mutability
  }
  return globals;
}

function globalInits(r: Reader): (number | null)[] {
  const inits: (number | null)[] = [];
  for (let n = r.u32(); n > 0; n--) {
    r.u8(); // value type
    r.u8(); // mutability
    inits.push(r.constExpr());
  }
  return inits;
}

function dataSegments(r: Reader): { offset: number | null; length: number }[] {
  const segments: { offset: number | null; length: number }[] = [];
  for (let n = r.u32(); n > 0; n--) {
    const flags = r.u32();
    if (flags === 2) r.u32(); // explicit memory index
    const offset = flags === 1 ? null : r.constExpr(); // 1: passive, no offset
    const length = r.u32();
    r.bytes(length);
    segments.push({ offset, length });
  }
  return segments;
}

/** Global index → name from the "name" custom section. */
function globalNames(r: Reader): Map<number, string> {
  const names = new Map<number, string>();
  if (r.name() !== "name") return names;
  while (!r.done) {
    const id = r.u8();
    const sub = new Reader(r.bytes(r.u32()));
    if (id !== NAME_GLOBALS) continue;
    for (let n = sub.u32(); n > 0; n--) names.set(sub.u32(), sub.name());
  }
  return names;
}

export function readWasmInfo(file: string): WasmInfo {
  const bytes = fs.readFileSync(file);
  let importedGlobals = 0;
  let inits: (number | null)[] = [];
  let initialPages = 0;
  let maximumPages: number | null = null;
  let segments: { offset: number | null; length: number }[] = [];
  let names = new Map<number, string>();
  for (const { id, body } of sections(bytes)) {
    if (id === SECTION.import) importedGlobals = countImportedGlobals(body);
    else if (id === SECTION.global) inits = globalInits(body);
    else if (id === SECTION.memory && body.u32() > 0) ({ min: initialPages, max: maximumPages } = body.limits());
    else if (id === SECTION.data) segments = dataSegments(body);
    else if (id === SECTION.custom) names = new Map([...names, ...globalNames(body)]);
  }
  const heapIndex = [...names].find(([, name]) => name === HEAP_BASE)?.[0];
  return {
    bytes: bytes.length,
    initialPages,
    maximumPages,
    dataSegments: segments.length,
    dataBytes: segments.reduce((sum, s) => sum + s.length, 0),
    dataEnd: Math.max(0, ...segments.map((s) => (s.offset ?? 0) + s.length)),
    heapBase: heapIndex === undefined ? null : (inits[heapIndex - importedGlobals] ?? null),
  };
}
