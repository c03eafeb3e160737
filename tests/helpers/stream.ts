// Helpers for the live stream tests (tests/stream-*.test.ts): a host of 4 panels on a manual clock
// with one stream input on a free loopback UDP port, a sender, and the panels' colours.
import assert from "node:assert/strict";
import dgram from "node:dgram";
import { after } from "node:test";
import { startHost, api, waitFor, type Host, type HostOptions } from "./host.js";
import { advance, colors } from "./playback.js";

/** A free UDP port on loopback. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = dgram.createSocket("udp4");
    s.bind(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** "#RRGGBB" colours as r, g, b bytes. */
export const rgb = (...hex: string[]): number[] =>
  hex.flatMap((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));

/** A host whose input `flag` ("ddpPort", "e131Port") listens on a free port, stopped after the file. */
export async function streamHost(flag: "ddpPort" | "e131Port") {
  const port = await freeUdpPort();
  const opts: HostOptions = { panels: 4, [flag]: port, extraArgs: ["--manual-clock", "--host", "127.0.0.1"] };
  const host: Host = await startHost(opts);
  const sender = dgram.createSocket("udp4");
  after(async () => {
    sender.close();
    await host.stop();
  });
  const shown = async (): Promise<string[]> => {
    const c = await colors(host);
    return [1, 2, 3, 4].map((i) => c[i]);
  };
  const stream = async (): Promise<unknown> => (await api(host, "GET", "/api/state")).body.stream;
  return {
    host,
    port,
    shown,
    stream,
    send: (bytes: Uint8Array): Promise<void> =>
      new Promise((resolve, reject) => sender.send(bytes, port, "127.0.0.1", (e) => (e ? reject(e) : resolve()))),
    /** Waits until the panels show `want` (a datagram is handled when the host's event loop gets it). */
    async untilShown(want: string[]): Promise<void> {
      let last: string[] = [];
      await waitFor(async () => JSON.stringify((last = await shown())) === JSON.stringify(want), 3000, 20).catch(() =>
        assert.deepEqual(last, want),
      );
    },
    /** Past the stream's timeout (2.5 s of the host's clock): no stream owns the panels. */
    async timeout(): Promise<void> {
      await advance(host, 2600);
      assert.equal(await stream(), null);
    },
  };
}
