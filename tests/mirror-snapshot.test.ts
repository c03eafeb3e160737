// The mirror snapshot of 100 panels, black box: larger than the core's 512-byte pieces (host_ws_append,
// docs/decisions.md), it still reaches the client as one MIRROR_BATCH frame, its header (written last
// by the core) in front, the records in the order they were sent, every bus packet sealed again with
// its version and CRC-8.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { crc8 } from "crc";
import { startHost } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets } from "./helpers/frames.js";

const N = 100;
const host = await startHost({ panels: N });
after(() => host.stop());

const rgb = (panel: number) => [panel, 255 - panel, (panel * 7) & 0xff];

test("100 panels' colours and power: one snapshot frame of several pieces, in order, each packet sealed", async () => {
  const c = await Client.connect(host.wsUrl);
  await c.next(T.APP_STATE);
  // every panel's colour, in reverse order, then every third panel off
  for (let p = N; p >= 1; p--) c.send(frame(T.SET_COLOR, [p, ...rgb(p)]));
  for (let p = 3; p <= N; p += 3) c.send(frame(T.TOGGLE, [p, 0]));
  await c.sync();
  c.send(frame(T.SET_MIRROR, [1]));
  c.send(frame(T.PING));
  await c.next(T.PONG);
  // next() took the PONG: what is left is the snapshot, one frame
  assert.deepEqual(
    c.frames.map((f) => f.type),
    [T.MIRROR_BATCH],
    "one frame, the snapshot, by the PONG of a PING sent after",
  );
  const snap = await c.next(T.MIRROR_BATCH); // parseFrame checked its size and both CRCs
  c.close();
  const records = mirroredPackets(snap);
  assert.ok(snap.payload.length > 2 * 512, `a snapshot of three pieces or more (${snap.payload.length} B)`);
  assert.equal(snap.payload.readUInt16LE(4), records.length, "the count");
  const colours = records.filter((r) => r.type === 5 && r.address !== 0);
  assert.deepEqual(
    colours.map((r) => [r.address, ...r.body]),
    Array.from({ length: N }, (_, i) => [N - i, ...rgb(N - i)]),
    "every panel's colour, in the order sent",
  );
  const off = records.filter((r) => r.type === 4 && r.address !== 0);
  assert.deepEqual(
    off.map((r) => [r.address, ...r.body]),
    Array.from({ length: 33 }, (_, i) => [3 * (i + 1), 0]),
  );
  assert.ok(records.indexOf(colours[N - 1]) < records.indexOf(off[0]), "the colours before the power");
  for (const r of records) {
    assert.deepEqual(
      [...r.packet.subarray(0, 4)],
      [r.address, r.type, r.packet.length, 6],
      "address, type, length, version",
    );
    const crc = crc8(Buffer.concat([r.packet.subarray(0, 4), r.packet.subarray(5)]));
    assert.equal(r.packet[4], crc, `the CRC-8 of panel ${r.address}'s type ${r.type}`);
  }
});
