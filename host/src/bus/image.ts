// The panel firmware image (docs/bus-protocol.md, "The panel firmware image"): a 16-byte header and
// the payload (for emulated panels, a panel.wasm). Used by the emulated panels' flash and the
// `tessera flash-panels` client; the controller checks images in the core (assembly/firmware/image.ts).

export const IMAGE_MAGIC = 0x46505354; // "TSPF" little-endian
export const IMAGE_HEADER = 16;
export const BUS_VERSION = 6;
/** The marker before the version a panel firmware reports in HELLO (assembly/panel/version.ts). */
export const VERSION_MARKER = "TSPV";

export interface ImageHeader {
  busVersion: number;
  version: number;
  length: number;
  crc: number;
}

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE: reflected 0xEDB88320, initial and final 0xFFFFFFFF). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The version a panel.wasm reports (the u16 after its marker), or 0 when it has none. */
export function panelVersion(wasm: Uint8Array): number {
  const b = Buffer.from(wasm.buffer, wasm.byteOffset, wasm.byteLength);
  const at = b.indexOf(VERSION_MARKER, 0, "latin1");
  return at < 0 || at + 6 > b.length ? 0 : b.readUInt16LE(at + 4);
}

/** An image of `payload`; its header's version is the one the payload reports unless given. */
export function makeImage(payload: Uint8Array, version = panelVersion(payload), busVersion = BUS_VERSION): Buffer {
  const out = Buffer.alloc(IMAGE_HEADER + payload.length);
  out.writeUInt32LE(IMAGE_MAGIC, 0);
  out[4] = busVersion;
  out.writeUInt16LE(version, 6);
  out.writeUInt32LE(payload.length, 8);
  out.writeUInt32LE(crc32(payload), 12);
  out.set(payload, IMAGE_HEADER);
  return out;
}

/** The header of a whole, valid image (magic, bus version, length and CRC-32 checked), or null. */
export function checkImage(image: Uint8Array): ImageHeader | null {
  if (image.length < IMAGE_HEADER) return null;
  const v = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const h = {
    busVersion: image[4],
    version: v.getUint16(6, true),
    length: v.getUint32(8, true),
    crc: v.getUint32(12, true),
  };
  if (v.getUint32(0, true) !== IMAGE_MAGIC || h.busVersion !== BUS_VERSION) return null;
  if (image.length !== IMAGE_HEADER + h.length || crc32(image.subarray(IMAGE_HEADER)) !== h.crc) return null;
  return h;
}
