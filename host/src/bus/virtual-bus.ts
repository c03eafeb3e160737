// The virtual panel bus: emulated panels (build/panel.wasm, one instance each) joined by wires as
// a topology describes. It only carries bytes; everything a panel does is in the panel firmware.
// Delivery is queued and pumped outside any core call, so the core is never re-entered.
import fs from "node:fs";
import type { Wire } from "./topology.js";
import { instantiatePanel, deliver, type PanelExports } from "./panel.js";

export type { PanelExports } from "./panel.js";

const CONTROLLER = -1;

export interface VirtualBusOptions {
  /** The panels' clock in ms (taken as u32); by default performance.now(). */
  clock?: () => number;
}

const defaultClock = () => Math.floor(performance.now());

interface Delivery {
  to: number; // panel position, or CONTROLLER
  port: number;
  bytes: Uint8Array;
}

export class VirtualBus {
  private readonly panels: PanelExports[] = [];
  /** links[panel][port] = [neighbour (or CONTROLLER), its port], or undefined when unplugged. */
  private readonly links: Array<Array<[number, number] | undefined>> = [];
  private readonly queue: Delivery[] = [];
  private scheduled = false;
  /** Bytes the controller has put on the bus (for the bench). */
  bytesFromController = 0;

  constructor(
    panelWasm: string,
    wires: Wire[],
    private readonly toController: (bytes: Uint8Array) => void,
    options: VirtualBusOptions = {},
  ) {
    const clock = options.clock ?? defaultClock;
    const module = new WebAssembly.Module(fs.readFileSync(panelWasm));
    wires.forEach((_, i) => {
      this.links.push([undefined, undefined, undefined]);
      this.panels.push(
        instantiatePanel(module, {
          transmit: (port, bytes) => this.transmit(i, port, bytes),
          linked: (port) => this.links[i][port] !== undefined,
          clock,
        }),
      );
    });
    wires.forEach((w, i) => {
      const parent = w.parent === 0 ? CONTROLLER : w.parent - 1;
      this.links[i][w.inEdge] = [parent, w.edge];
      if (parent !== CONTROLLER) this.links[parent][w.edge] = [i, w.inEdge];
    });
  }

  get size(): number {
    return this.panels.length;
  }

  /** The controller transmits: the packet goes to the panel wired to it. */
  sendFromController(bytes: Uint8Array): void {
    this.bytesFromController += bytes.length;
    const root = this.links.findIndex((ports) => ports.some((l) => l && l[0] === CONTROLLER));
    if (root < 0) return;
    const port = this.links[root].findIndex((l) => l && l[0] === CONTROLLER);
    this.enqueue({ to: root, port, bytes: bytes.slice() });
  }

  private transmit(from: number, port: number, bytes: Uint8Array): void {
    const link = this.links[from][port];
    if (!link) return;
    this.enqueue({ to: link[0], port: link[1], bytes: bytes.slice() });
  }

  private enqueue(d: Delivery): void {
    this.queue.push(d);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.pump());
    }
  }

  /** Delivers everything queued, including what the deliveries cause. */
  pump(): void {
    this.scheduled = false;
    for (let d = this.queue.shift(); d; d = this.queue.shift()) {
      if (d.to === CONTROLLER) {
        this.toController(d.bytes);
        continue;
      }
      deliver(this.panels[d.to], d.port, d.bytes);
    }
  }

  /** What each panel shows, by wiring position: its address, power, colour and LED output. */
  snapshot(): { address: number; on: boolean; color: number; led: number }[] {
    return this.panels.map((p) => ({
      address: p.panel_address(),
      on: p.panel_is_on() === 1,
      color: p.panel_color(),
      led: p.panel_led(),
    }));
  }
}
