// The controller started in-process as the desktop host runs it, with a throw-away data dir.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startController, type RunningController } from "../host/src/controller.js";
import { generateTopology } from "../host/src/bus/topology.js";

export interface BenchController {
  running: RunningController;
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

/** Polls GET /api/panels/edges until every panel is listed (three slots each). */
export async function waitForDiscovery(url: string, panels: number, timeoutMs = 10000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const edges = (await (await fetch(`${url}/api/panels/edges`)).json()) as unknown[];
    if (edges.length === panels * 3) return;
    if (Date.now() > end) throw new Error(`discovery found ${edges.length / 3} of ${panels} panels`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function startBenchController(panels: number): Promise<BenchController> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-"));
  const running = await startController({
    port: 0,
    dataDir,
    wires: generateTopology(panels),
    variant: "large",
    logLevel: "error",
  });
  await waitForDiscovery(running.url, panels);
  return {
    running,
    url: running.url,
    wsUrl: `ws://localhost:${running.port}/ws`,
    async close() {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
