// A core instantiated on its own for the in-core timings: its outputs go nowhere, except that the
// panel bus is wired to emulated panels until discovery is done (so the panels exist and a
// SET_COLOR is really built and sent) and HTTP answers can be captured to check them.
import path from "node:path";
import { Core, type CoreServices } from "../host/src/core.js";
import { ROOT, VARIANT_LIMITS } from "../host/src/controller.js";
import { VirtualBus } from "../host/src/bus/virtual-bus.js";
import { generateTopology } from "../host/src/bus/topology.js";
import { METHOD_CODES } from "../host/src/abi.js";
import { MemoryStore } from "./memory-store.js";
import { GET_EDGES, type HttpCase } from "./requests.js";

export interface Answer {
  status: number;
  body: string;
}

export class BenchCore {
  readonly core: Core;
  private readonly store = new MemoryStore();
  private bus: VirtualBus | null;
  /** Packets the core has put on the bus, counted whether or not a bus is plugged. */
  busPackets = 0;
  /** The status of the last HTTP answer; the body only while `capturing`. */
  lastStatus = 0;
  private capturing = false;
  private chunks: Uint8Array[] = [];
  private nextReq = 1;

  constructor(panels: number) {
    const start = performance.now();
    const services: CoreServices = {
      busSend: (bytes) => {
        this.busPackets++;
        this.bus?.sendFromController(bytes);
      },
      httpHead: (_req, status) => {
        this.lastStatus = status;
      },
      httpBody: (_req, bytes) => {
        if (this.capturing) this.chunks.push(bytes);
      },
      httpEnd: () => {},
      wsSend: () => {},
      wsBroadcast: () => {},
      store: this.store,
      clockMs: () => performance.now() - start,
      log: () => {},
      restarted: (reason) => {
        throw new Error(`core trapped during the bench: ${reason}`);
      },
    };
    this.bus = new VirtualBus(path.join(ROOT, "build/panel.wasm"), generateTopology(panels), (bytes) =>
      this.core.busReceive(bytes),
    );
    this.core = new Core(path.join(ROOT, "build/controller.wasm"), VARIANT_LIMITS.large, services);
  }

  /** Sends one request of `c` (body number `i` of its bodies) straight into the core. */
  http(c: HttpCase, i = 0): void {
    const body = c.bodies[i % c.bodies.length];
    this.core.http(this.nextReq++ >>> 0, METHOD_CODES[c.method], Buffer.from(c.path), body, body.length);
  }

  /** One request with its answer captured. */
  ask(c: HttpCase): Answer {
    this.capturing = true;
    this.chunks = [];
    this.http(c);
    this.capturing = false;
    return { status: this.lastStatus, body: Buffer.concat(this.chunks).toString("utf8") };
  }

  /** Ticks the core until discovery lists every panel, then unplugs the bus. */
  async discover(panels: number, timeoutMs = 10000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while ((JSON.parse(this.ask(GET_EDGES).body) as unknown[]).length < panels * 3) {
      if (Date.now() > end) throw new Error("the bench core did not discover its panels");
      this.core.tick();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    this.bus = null;
  }

  dispose(): void {
    this.store.dispose();
  }
}
