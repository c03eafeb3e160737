// The controller started in-process as the desktop host runs it, with a throw-away data dir.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startController, type ControllerOptions, type RunningController } from "../host/src/controller.js";
import { generateTopology } from "../host/src/bus/topology.js";

export interface BenchController {
  running: RunningController;
  url: string;
  wsUrl: string;
  /** POSTs a JSON body; throws on a status of 300 or more. */
  post(path: string, body: unknown): Promise<string>;
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

/** The desktop host's controller in-process on `panels` generated panels, discovery done. `options`
 * add to the defaults (e.g. `manualClock`, `seed`). */
export async function startBenchController(
  panels: number,
  options: Partial<ControllerOptions> = {},
): Promise<BenchController> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-"));
  const running = await startController({
    port: 0,
    dataDir,
    wires: generateTopology(panels),
    variant: "large",
    logLevel: "error",
    otaPort: 0, // no self-update port: benches never compete for UDP 3232
    ...options,
  });
  await waitForDiscovery(running.url, panels);
  return {
    running,
    url: running.url,
    wsUrl: `ws://localhost:${running.port}/ws`,
    async post(p: string, body: unknown) {
      const res = await fetch(running.url + p, { method: "POST", body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${p}: ${res.status} ${text}`);
      return text;
    },
    async close() {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Times every core tick from now on: `onTick(ms, busBytes)` gets each tick's duration and the bus
 * bytes the controller sent during it. */
export function timeTicks(running: RunningController, onTick: (ms: number, busBytes: number) => void): void {
  const core = running.core;
  const original = core.tick.bind(core);
  core.tick = () => {
    const bytes = running.bus.bytesFromController;
    const t = performance.now();
    const r = original();
    onTick(performance.now() - t, running.bus.bytesFromController - bytes);
    return r;
  };
}
