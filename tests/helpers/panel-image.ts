// Test panel firmware: a copy of build/panel.wasm that reports another version in HELLO. The
// version is data the running code reads (assembly/panel/version.ts), so a panel reports it only
// when it really runs this module: the hosts' proof that a flashed image is the one that boots.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./host.js";
import { VERSION_MARKER, makeImage, panelVersion } from "../../host/src/bus/image.js";

export const factoryWasm = fs.readFileSync(path.join(ROOT, "build/panel.wasm"));
/** The version the built-in panel firmware reports in HELLO. */
export const FACTORY_VERSION = panelVersion(factoryWasm);

/** build/panel.wasm reporting `version`. */
export function panelWasm(version: number): Buffer {
  const copy = Buffer.from(factoryWasm);
  const at = copy.indexOf(VERSION_MARKER, 0, "latin1");
  if (at < 0 || copy.indexOf(VERSION_MARKER, at + 1, "latin1") >= 0) throw new Error("panel.wasm: one version marker");
  copy.writeUInt16LE(version, at + 4);
  return copy;
}

/** A flashable image of panel.wasm reporting `version`, with `padding` bytes of custom section
 * after it (still a valid module: a larger image). */
export function panelImage(version: number, padding = 0): Buffer {
  if (padding === 0) return makeImage(panelWasm(version));
  const name = Buffer.from("pad");
  const leb: number[] = [];
  for (let v = name.length + 1 + padding; ;) {
    const b = v & 0x7f;
    v >>>= 7;
    if (v === 0) {
      leb.push(b);
      break;
    }
    leb.push(b | 0x80);
  }
  const section = Buffer.concat([Buffer.from([0, ...leb, name.length]), name, Buffer.alloc(padding, 0xa5)]);
  return makeImage(Buffer.concat([panelWasm(version), section]));
}
