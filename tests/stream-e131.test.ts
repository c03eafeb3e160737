// The E1.31 (sACN) live stream input (issue 35), black box: real datagrams on the host's UDP port,
// built here byte by byte from ANSI E1.31-2016 (root, framing and DMP layers), and the panels'
// colours read back through GET /api/panels. One universe (1), from DMX address 1, 3 channels a
// panel; a lower priority than the owner's is dropped, and so is a stale or duplicate sequence;
// preview data is not shown; stream terminated lets go at once. The host runs on a manual clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { waitFor } from "./helpers/host.js";
import { advance } from "./helpers/playback.js";
import { streamHost, rgb } from "./helpers/stream.js";

const { host, send, shown, stream, untilShown, timeout } = await streamHost("e131Port");

interface E131 {
  cid?: number; // the CID's last byte (the rest fixed)
  priority?: number;
  sequence: number;
  options?: number;
  universe?: number;
  startCode?: number;
  slots: number[];
}

/** An E1.31 data packet: 126 bytes of header, then the DMX slots. */
function e131(d: E131): Buffer {
  const n = d.slots.length;
  const b = Buffer.alloc(126 + n);
  b.writeUInt16BE(0x0010, 0); // preamble size
  b.writeUInt16BE(0x0000, 2); // postamble size
  Buffer.from("ASC-E1.17\0\0\0", "latin1").copy(b, 4);
  b.writeUInt16BE(0x7000 | (b.length - 16), 16); // root layer flags and length
  b.writeUInt32BE(0x00000004, 18); // VECTOR_ROOT_E131_DATA
  for (let i = 0; i < 16; i++) b[22 + i] = i === 15 ? (d.cid ?? 1) : 0xa0 + i; // CID
  b.writeUInt16BE(0x7000 | (b.length - 38), 38); // framing layer
  b.writeUInt32BE(0x00000002, 40); // VECTOR_E131_DATA_PACKET
  Buffer.from("tessera test", "utf8").copy(b, 44); // source name, 64 bytes, NUL-padded
  b[108] = d.priority ?? 100;
  b.writeUInt16BE(0, 109); // sync address
  b[111] = d.sequence & 0xff;
  b[112] = d.options ?? 0;
  b.writeUInt16BE(d.universe ?? 1, 113);
  b.writeUInt16BE(0x7000 | (b.length - 115), 115); // DMP layer
  b[117] = 0x02; // VECTOR_DMP_SET_PROPERTY
  b[118] = 0xa1; // address and data type
  b.writeUInt16BE(0x0000, 119); // first property address
  b.writeUInt16BE(0x0001, 121); // address increment
  b.writeUInt16BE(1 + n, 123); // property value count: the start code and the slots
  b[125] = d.startCode ?? 0;
  Buffer.from(d.slots).copy(b, 126);
  return b;
}

const same = (h: string) => [h, h, h, h];

const settle = () => new Promise((r) => setTimeout(r, 200));
const FRAME = ["#FF0000", "#00FF00", "#0000FF", "#123456"];

test("a universe 1 packet lights panel i + 1 from DMX slots 3i + 1 to 3i + 3; GET /api/state names it", async () => {
  await advance(host, 0);
  assert.deepEqual(await shown(), same("#FFFFFF"));
  await send(e131({ sequence: 1, slots: rgb(...FRAME) }));
  await untilShown(FRAME);
  assert.deepEqual(await stream(), { protocol: "e131", source: "127.0.0.1" });
  await timeout();
  assert.deepEqual(await shown(), same("#FFFFFF"));
});

test("a stale or duplicate sequence is dropped; one ahead shows", async () => {
  await send(e131({ sequence: 10, slots: rgb(...same("#101010")) }));
  await untilShown(same("#101010"));
  await send(e131({ sequence: 10, slots: rgb(...same("#202020")) })); // duplicate
  await send(e131({ sequence: 5, slots: rgb(...same("#303030")) })); // stale
  await settle();
  assert.deepEqual(await shown(), same("#101010"));
  await send(e131({ sequence: 11, slots: rgb(...same("#404040")) }));
  await untilShown(same("#404040"));
  // far behind (more than 20): taken as a restarted sender
  await send(e131({ sequence: 200, slots: rgb(...same("#505050")) }));
  await untilShown(same("#505050"));
  await timeout();
});

test("a lower priority waits while a higher one owns the panels; a higher priority takes over", async () => {
  await send(e131({ cid: 1, priority: 100, sequence: 1, slots: rgb(...same("#111111")) }));
  await untilShown(same("#111111"));
  await send(e131({ cid: 2, priority: 50, sequence: 1, slots: rgb(...same("#222222")) }));
  await settle();
  assert.deepEqual(await shown(), same("#111111"));
  await send(e131({ cid: 3, priority: 150, sequence: 1, slots: rgb(...same("#333333")) }));
  await untilShown(same("#333333"));
  await send(e131({ cid: 1, priority: 100, sequence: 2, slots: rgb(...same("#444444")) }));
  await settle();
  assert.deepEqual(await shown(), same("#333333"));
  await timeout();
  // once the owner has timed out a lower priority is shown
  await send(e131({ cid: 2, priority: 50, sequence: 2, slots: rgb(...same("#222222")) }));
  await untilShown(same("#222222"));
  await timeout();
});

test("stream terminated lets the panels go at once; preview data is not shown", async () => {
  await send(e131({ cid: 4, sequence: 1, slots: rgb(...FRAME) }));
  await untilShown(FRAME);
  await send(e131({ cid: 4, sequence: 2, options: 0x40, slots: rgb(...same("#999999")) }));
  await waitFor(async () => (await stream()) === null, 3000, 20);
  await advance(host, 0);
  assert.deepEqual(await shown(), same("#FFFFFF"));
  await send(e131({ cid: 4, sequence: 3, options: 0x80, slots: rgb(...same("#999999")) }));
  await settle();
  assert.equal(await stream(), null);
  assert.deepEqual(await shown(), same("#FFFFFF"));
});

test("wrong universe, start code, identifier, vectors or lengths, and random bytes change nothing", async () => {
  const good = rgb(...same("#ABCDEF"));
  const ok = e131({ cid: 9, sequence: 1, slots: good });
  const patched = (at: number, v: number) => {
    const b = Buffer.from(ok);
    b[at] = v;
    return b;
  };
  const bad: Buffer[] = [
    e131({ cid: 9, sequence: 1, universe: 2, slots: good }),
    e131({ cid: 9, sequence: 1, startCode: 0xdd, slots: good }), // not dimmer data
    patched(4, 0x61), // "asc-E1.17"
    patched(21, 8), // root vector (extended)
    patched(43, 1), // framing vector
    patched(117, 1), // DMP vector
    patched(118, 0xa2),
    patched(124, 200), // more slots than came
    ok.subarray(0, 125), // shorter than the header
    Buffer.alloc(0),
  ];
  for (const b of bad) await send(b);
  for (const b of fc.sample(fc.uint8Array({ minLength: 0, maxLength: 700 }), { numRuns: 300, seed: 35 })) await send(b);
  await settle();
  assert.equal(await stream(), null);
  assert.deepEqual(await shown(), same("#FFFFFF"));
  await send(ok);
  await untilShown(same("#ABCDEF"));
  await timeout();
});
