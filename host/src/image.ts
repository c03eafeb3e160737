// A core image (controller.wasm) as the hosts see it: its build identifier, and the check that an
// image received by self-update (host/src/net/ota.ts) is a core this host can run: it compiles and
// has exactly the imports and exports of the host ABI (host/src/abi.ts), signature for signature.
import { createHash } from "node:crypto";
import { CORE_EXPORTS, CORE_IMPORTS, IMPORT_MODULE, wasmName } from "./abi.js";

/** The build identifier of an image: the first four bytes of its MD5 (what espota sends), as a u32.
 * The core shows it after its version in controllerFirmware ("0.1.0+1a2b3c4d"); every host computes
 * it the same way (the C host in native/src/md5.c, or at build time for wasm2c). */
export function buildId(image: Uint8Array): number {
  return createHash("md5").update(image).digest().readUInt32BE(0);
}

export const buildIdHex = (id: number): string => (id >>> 0).toString(16).padStart(8, "0");

const VALTYPES: Record<number, string> = { 0x7f: "i32", 0x7e: "i64", 0x7d: "f32", 0x7c: "f64" };

/** The function signatures of a module's imports and exports ("(i32,i32)->(i32)"), read from its
 * type, import, function and export sections. The module has been validated by the caller. */
function signatures(bytes: Uint8Array): { imports: Map<string, string>; exports: Map<string, string> } {
  let pos = 8;
  const u32 = (): number => {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = bytes[pos++];
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
    throw new Error("bad LEB128");
  };
  const name = (): string => {
    const n = u32();
    pos += n;
    return Buffer.from(bytes.subarray(pos - n, pos)).toString("utf8");
  };
  const types: string[] = [];
  const funcTypes: number[] = []; // imported functions first, then the module's own
  const imports = new Map<string, string>();
  const exports = new Map<string, string>();
  while (pos < bytes.length) {
    const id = bytes[pos++];
    const size = u32();
    const end = pos + size;
    if (id === 1) {
      for (let n = u32(); n > 0; n--) {
        pos++; // 0x60
        const params = Array.from({ length: u32() }, () => VALTYPES[bytes[pos++]] ?? "?");
        const results = Array.from({ length: u32() }, () => VALTYPES[bytes[pos++]] ?? "?");
        types.push(`(${params.join(",")})->(${results.join(",")})`);
      }
    } else if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        const key = `${name()}.${name()}`;
        const kind = bytes[pos++];
        if (kind === 0) {
          const t = u32();
          funcTypes.push(t);
          imports.set(key, types[t]);
        } else {
          imports.set(key, `kind ${kind}`);
          if (kind === 1)
            (pos++, u32() & 1 ? (u32(), u32()) : u32()); // table: reftype, limits
          else if (kind === 2)
            bytes[pos++] & 1 ? (u32(), u32()) : u32(); // memory: limits
          else pos += 2; // global: valtype, mutability
        }
      }
    } else if (id === 3) {
      for (let n = u32(); n > 0; n--) funcTypes.push(u32());
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) {
        const key = name();
        const kind = bytes[pos++];
        const index = u32();
        exports.set(key, kind === 0 ? types[funcTypes[index]] : `kind ${kind}`);
      }
    }
    pos = end;
  }
  return { imports, exports };
}

const sigText = (s: { params: readonly string[]; results: readonly string[] }) =>
  `(${s.params.join(",")})->(${s.results.join(",")})`;

/** Compiles a candidate core image and checks it against the host ABI. Throws an Error saying what is
 * wrong; returns the compiled module when it is a core this host can run. */
export function checkCoreImage(image: Uint8Array): WebAssembly.Module {
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(image as Uint8Array<ArrayBuffer>);
  } catch (e) {
    throw new Error(`not a WebAssembly module (${(e as Error).message})`);
  }
  const { imports, exports } = signatures(image);
  const want = new Map<string, string>();
  for (const [n, s] of Object.entries(CORE_IMPORTS)) want.set(`${IMPORT_MODULE}.${wasmName(n)}`, sigText(s));
  for (const [key, sig] of imports)
    if (want.get(key) !== sig) throw new Error(`import ${key} ${sig} is not in the host ABI`);
  for (const key of want.keys()) if (!imports.has(key)) throw new Error(`import ${key} is missing`);
  const wantExports = new Map<string, string>([["memory", "kind 2"]]);
  for (const [n, s] of Object.entries(CORE_EXPORTS)) wantExports.set(wasmName(n), sigText(s));
  for (const [key, sig] of exports)
    if (wantExports.get(key) !== sig) throw new Error(`export ${key} ${sig} is not in the host ABI`);
  for (const key of wantExports.keys()) if (!exports.has(key)) throw new Error(`export ${key} is missing`);
  return module;
}
