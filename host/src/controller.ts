// The desktop host put together: the core, its store, the virtual panel bus and the server, and
// the main loop that ticks the core. main.ts is the command line around it; tests and the bench
// can start it in-process too.
import path from "node:path";
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Core, seededRandom } from "./core.js";
import { FileStore } from "./store.js";
import { Server } from "./server.js";
import { VirtualBus } from "./bus/virtual-bus.js";
import type { Wire } from "./bus/topology.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const VARIANT_LIMITS = { small: 32, large: 100 } as const;
export type Variant = keyof typeof VARIANT_LIMITS;

export interface ControllerOptions {
  port: number;
  host?: string;
  dataDir: string;
  wires: Wire[];
  variant: Variant;
  logLevel?: "error" | "warn" | "info" | "debug";
  coreWasm?: string;
  panelWasm?: string;
  /** Test hook: the core's and the panels' clocks stand still and only advance through
   * `POST /__test__/clock {"advance": ms}` (see docs/desktop-host.md). */
  manualClock?: boolean;
  /** Test hook: host_random() replays a fixed sequence from this seed (the spawners' rain, scene
   * ids), instead of crypto entropy (see docs/desktop-host.md). */
  seed?: number;
}

export interface RunningController {
  url: string;
  port: number;
  hostname: string;
  core: Core;
  bus: VirtualBus;
  close(): Promise<void>;
}

const LEVELS = ["error", "warn", "info", "debug"];

/** The persisted chip id: six hex digits, like the low bytes of a device's MAC. */
export function chipId(dataDir: string): string {
  const file = path.join(dataDir, "chipid");
  try {
    const id = fs.readFileSync(file, "utf8").trim();
    if (/^[0-9a-f]{6}$/.test(id)) return id;
  } catch {
    // first start: make one
  }
  const id = randomBytes(3).toString("hex");
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, id + "\n");
  return id;
}

export async function startController(opts: ControllerOptions): Promise<RunningController> {
  const logLevel = LEVELS.indexOf(opts.logLevel ?? "info");
  const log = (level: string, message: string) => {
    if (LEVELS.indexOf(level) <= logLevel) console.error(`[${level}] ${message}`);
  };
  const store = new FileStore(opts.dataDir);
  const hostname = `tessera-${chipId(opts.dataDir)}`;
  const start = performance.now();
  let virtualMs = 0;
  const clockMs = opts.manualClock ? () => virtualMs : () => performance.now() - start;
  let server!: Server;
  let core!: Core;
  const bus = new VirtualBus(
    opts.panelWasm ?? path.join(ROOT, "build/panel.wasm"),
    opts.wires,
    (bytes) => {
      core.busReceive(bytes);
      kick();
    },
    opts.manualClock ? { clock: () => Math.floor(virtualMs) } : {},
  );

  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let closed = false;
  const tick = () => {
    if (closed) return;
    clearTimeout(timer);
    immediate = undefined;
    // Packets already on the wire are received before the core looks at its timers, as a device
    // drains its UART before its main loop runs: a busy process must not turn into a bus timeout.
    bus.pump();
    const next = core.tick();
    timer = setTimeout(tick, Math.max(1, Math.min(next, 100)));
  };
  const kick = () => {
    if (!immediate && !closed) immediate = setImmediate(tick);
  };

  server = new Server({
    http: (...a) => core.http(...a),
    wsOpen: (c) => core.wsOpen(c),
    wsFrame: (c, f) => core.wsFrame(c, f),
    wsClose: (c) => core.wsClose(c),
    kick,
  });
  core = new Core(opts.coreWasm ?? path.join(ROOT, "build/controller.wasm"), VARIANT_LIMITS[opts.variant], {
    busSend: (bytes) => bus.sendFromController(bytes),
    httpHead: (r, s, l) => server.httpHead(r, s, l),
    httpBody: (r, b) => server.httpBody(r, b),
    httpEnd: (r) => server.httpEnd(r),
    wsSend: (c, b) => server.wsSend(c, b),
    wsBroadcast: (b) => server.wsBroadcast(b),
    store,
    clockMs,
    random: opts.seed === undefined ? undefined : seededRandom(opts.seed),
    log,
    restarted: () => server.resetAfterCoreRestart(),
  });
  if (opts.manualClock) {
    // POST /__test__/clock {"advance": ms}: the clock moves in steps of at most 5 ms, and at each
    // step the core ticks and every bus packet is delivered, as if that time had passed.
    server.staticHandler = (req, res) => {
      if ((req.url ?? "").split("?")[0] !== "/__test__/clock") return false;
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        let advance = 0;
        try {
          advance = Number(JSON.parse(body || "{}").advance ?? 0);
        } catch {
          advance = NaN;
        }
        if (req.method !== "POST" || !Number.isFinite(advance) || advance < 0) {
          res.writeHead(400, { "content-type": "application/json" }).end('{"error":"invalid_json"}');
          return;
        }
        const settle = () => {
          core.tick();
          bus.pump();
          core.tick();
          bus.pump();
        };
        settle();
        let left = advance;
        while (left > 0) {
          const step = Math.min(5, left);
          virtualMs += step;
          left -= step;
          settle();
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ now: virtualMs }));
      });
      return true;
    };
  }
  const port = await server.listen(opts.port, opts.host);
  tick();
  return {
    url: `http://localhost:${port}`,
    port,
    hostname,
    core,
    bus,
    async close() {
      closed = true;
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      await server.close();
    },
  };
}
