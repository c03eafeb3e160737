// The firmware's version, reported in HELLO: part of the image itself, so a panel running another
// image says so. It lives in data behind the marker "TSPV" (then u16 LE), where tools find it:
// scripts/build.mjs copies it into build/panel.fw's header, tests patch a copy of panel.wasm to
// make an image that reports another version (tests/helpers/panel-image.ts).
const VERSION = memory.data<u8>([0x54, 0x53, 0x50, 0x56, 2, 0]);

export function firmwareVersion(): u16 {
  return load<u16>(VERSION, 4);
}
