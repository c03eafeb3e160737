// asc transform (passed by scripts/build.mjs to the controller build only): the controller's static
// objects laid out back to back, so that the data section is a few long segments instead of hundreds.
//
// AssemblyScript places each static object (a string literal, a StaticArray literal, a constant
// Array's header, a function reference) as a heap block would be: mmInfo (the block's size), gcInfo,
// gcInfo2, rtId, rtSize, then the object's bytes, the payload 16-aligned. Between two objects there
// are then at least 12 zero bytes (mmInfo, gcInfo, gcInfo2), more than a data segment header costs
// (6-8 bytes), so every object was a segment or two of its own: some 300 objects, 2-4 KB of headers.
//
// Of those 20 header bytes the controller reads only rtId (instanceof) and rtSize (a string's or a
// StaticArray's length). mmInfo is read by the arena (assembly/rt/arena.ts) only for a block it frees,
// reallocates or renews, and it does that to a block it allocated (arenaFree and arenaRealloc change
// a block only when it ends at the arena's top; the one static object the standard library renews is
// an Array's buffer, an ArrayBuffer, which keeps AssemblyScript's layout here); the stub runtime has
// no collector, so gcInfo and gcInfo2 are never read. So here a static object other than an
// ArrayBuffer starts at its rtId: its payload is aligned only as its type needs (4 for a string, the
// element size for a StaticArray), and the 12 bytes before its rtId, where its mmInfo and gc words
// would be, are whatever precedes it (the previous object's last bytes). Only rtId, rtSize and the
// payload are written. Objects then touch, and scripts/pack-data.mjs merges them into few segments.
//
// The layout is AssemblyScript's to choose when it places an object (Compiler#addRuntimeMemorySegment,
// which returns where the block starts; the compiler adds the 20-byte header to that for the object's
// address). This transform replaces that one method before the compiler runs; the build fails if
// AssemblyScript no longer has it or never calls it (the version is pinned in package-lock.json).
import fs from "node:fs";
import { Transform } from "assemblyscript/transform";
import { Compiler, MemorySegment } from "assemblyscript";

const HEADER = 20; // mmInfo, gcInfo, gcInfo2, rtId, rtSize (~lib/rt/common.ts)
const HIDDEN = 12; // mmInfo, gcInfo, gcInfo2: the header bytes a static object does not own
const RT_ID = 12; // where rtId is in a block
const RT_SIZE = 16;

const place = Compiler.prototype.addRuntimeMemorySegment;
if (typeof place !== "function") throw new Error("static-data-transform: Compiler#addRuntimeMemorySegment is gone");

let placed = 0;
let compiler = null;

export default class StaticDataTransform extends Transform {
  afterInitialize(program) {
    placed = 0;
    const arrayBufferId = program.arrayBufferInstance.id;
    const stringId = program.stringInstance.id;
    /** The alignment of an object's payload: its values' size for an array-like class, else 4. */
    const alignment = (rtId) => {
      if (rtId === stringId) return 4;
      const cls = program.managedClasses.get(rtId);
      const arrayLike = (c) =>
        c.isBuiltinArray ||
        c.extendsPrototype(program.staticArrayPrototype) ||
        c.extendsPrototype(program.arrayPrototype);
      const value = cls && arrayLike(cls) ? cls.getArrayValueType() : null;
      return Math.max(4, Math.min(16, value ? value.byteSize : 4));
    };
    Compiler.prototype.addRuntimeMemorySegment = function (buffer) {
      const view = new DataView(buffer.buffer, buffer.byteOffset);
      const rtId = view.getUint32(RT_ID, true);
      if (rtId === arrayBufferId) return place.call(this, buffer);
      // the payload after rtId and rtSize, which start where the data so far ends (aligned); the
      // object ends with its payload (the buffer's padding to a block size is not its own either)
      const payload = i64_align(i64_add(this.memoryOffset, i64_new(8)), alignment(rtId));
      const start = i64_sub(payload, i64_new(HEADER));
      const end = HEADER + view.getUint32(RT_SIZE, true);
      this.memorySegments.push(new MemorySegment(buffer.subarray(HIDDEN, end), i64_add(start, i64_new(HIDDEN))));
      this.memoryOffset = i64_add(start, i64_new(end));
      placed++;
      compiler = this;
      return new MemorySegment(buffer, start); // the caller reads the object's address and fields
    };
  }

  afterCompile() {
    Compiler.prototype.addRuntimeMemorySegment = place;
    if (placed === 0) throw new Error("static-data-transform: no static object was placed by this transform");
    // where static memory ends (AssemblyScript's __heap_base: the end of the statics, pointer-aligned),
    // for scripts/pack-statics.mjs, which puts the packed data above it
    const layout = process.env.TESSERA_STATIC_END_FILE;
    if (layout) fs.writeFileSync(layout, String(i64_low(i64_align(compiler.memoryOffset, 4))) + "\n");
  }
}
