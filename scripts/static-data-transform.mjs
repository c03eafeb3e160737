// asc transform (passed by scripts/build.mjs to the controller build only): static objects without a
// block size, so the data section needs about half as many segments.
//
// AssemblyScript writes every static object (a string literal, a constant array's buffer and header,
// a StaticArray literal) as a heap block would be: mmInfo (the block's size), gcInfo, gcInfo2, rtId,
// rtSize, then the object's bytes, its payload 16-aligned. In the data section a segment ends at every
// run of zeros longer than a segment header (6-8 bytes): the byte of mmInfo then stands alone between
// the previous object's padding and the 11 zero bytes after it (the rest of mmInfo, gcInfo, gcInfo2),
// one segment header for one byte, for each of some 300 objects.
//
// Nothing reads the mmInfo of a static object but the arena (assembly/rt/arena.ts) when it frees,
// reallocates or renews it: arenaFree and arenaRealloc change a block only when it ends at the arena's
// top (a static one never does), and the one object the standard library renews is an Array's buffer
// (an ArrayBuffer, which a constant Array literal may have in static memory; renewing copies mmInfo
// bytes). So this transform writes 0 into mmInfo of every static object but an ArrayBuffer: its
// header's zeros join the padding before it, and the object is one segment (scripts/pack-data.mjs
// merges what is left). rtId and rtSize, which the standard library reads (instanceof, a string's
// length), stay. Measured: 320 objects, -2,106 B of image.
//
// Done on the module asc has just compiled (afterCompile, before Binaryen optimises it), where each
// static object is still a segment of its own. An object is recognised by AssemblyScript's layout of
// it (~lib/rt/common.ts): its segment starts BLOCK_OVERHEAD before a 16-byte boundary and is exactly
// one block long, mmInfo being the block size the compiler computes from rtSize, with both gc words 0
// and a class id the program has. A table of `memory.data` is aligned to its element size at most and
// would have to hold that very header, its own length included, to be taken for one.
import { Transform } from "assemblyscript/transform";

const BLOCK_OVERHEAD = 4;
const OBJECT_OVERHEAD = 16;
const AL_MASK = 15;

/** The mmInfo AssemblyScript writes for a static object of `rtSize` bytes (Program#computeBlockSize). */
function blockSize(rtSize) {
  const size = ((rtSize + OBJECT_OVERHEAD + BLOCK_OVERHEAD + AL_MASK) & ~AL_MASK) - BLOCK_OVERHEAD;
  const least = ((3 * 4 + BLOCK_OVERHEAD + AL_MASK) & ~AL_MASK) - BLOCK_OVERHEAD;
  return Math.max(size, least);
}

/** Whether the segment at `offset` holding `data` is a static object (see above). */
export function isStaticObject(offset, data, classIds) {
  if ((offset + BLOCK_OVERHEAD) & AL_MASK || data.length < BLOCK_OVERHEAD + OBJECT_OVERHEAD) return false;
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const mmInfo = v.getUint32(0, true);
  const rtId = v.getUint32(12, true);
  const rtSize = v.getUint32(16, true);
  return (
    data.length === BLOCK_OVERHEAD + mmInfo &&
    mmInfo === blockSize(rtSize) &&
    v.getUint32(4, true) === 0 &&
    v.getUint32(8, true) === 0 &&
    classIds.has(rtId)
  );
}

export default class StaticDataTransform extends Transform {
  afterCompile(module) {
    const binaryen = this.binaryen;
    const classIds = new Set(this.program.managedClasses.keys());
    classIds.delete(this.program.arrayBufferInstance.id); // an Array's buffer, renewed when it grows
    const memory = "0"; // AssemblyScript's one memory (CommonNames.DefaultMemory)
    const info = module.getMemoryInfo(memory);
    const segments = [];
    let zeroed = 0;
    for (let i = 0, n = module.getNumMemorySegments(); i < n; i++) {
      const s = module.getMemorySegmentInfoByIndex(i);
      if (s.passive) return; // memory.init names segments by index: leave such a module as it is
      const data = new Uint8Array(s.data);
      if (isStaticObject(s.offset, data, classIds)) {
        data.fill(0, 0, BLOCK_OVERHEAD);
        zeroed++;
      }
      segments.push({ offset: module.i32.const(s.offset), data, passive: false });
    }
    if (zeroed === 0) return;
    const max = info.max ?? binaryen.unlimited ?? -1;
    // the memory export keeps naming memory "0", so none is added here
    module.setMemory(info.initial, max, null, segments, info.shared, info.is64, memory);
  }
}
