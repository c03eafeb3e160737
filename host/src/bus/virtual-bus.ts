// The virtual panel bus: emulated panels (build/panel.wasm, one instance each) joined by wires as
// a topology describes. It only carries bytes; everything a panel does is in the panel firmware.
// Delivery is queued and pumped outside any core call, so the core is never re-entered.
import fs from "node:fs";
import type { Wire } from "./topology.js";
import path from "node:path";
import { instantiatePanel, deliver, PANEL_EXPORTS, type PanelExports } from "./panel.js";
import { PanelFlash, type PanelFault } from "./flash.js";

export type { PanelExports } from "./panel.js";

const CONTROLLER = -1;

export interface VirtualBusOptions {
  /** The panels' clock in ms (taken as u32); by default performance.now(). */
  clock?: () => number;
  /** Where each panel keeps the image it was flashed with (<dir>/<position>.fw); none: in memory. */
  flashDir?: string;
  /** Test hooks: panels whose bootloader fails (--panel-fault). */
  faults?: PanelFault[];
}

const defaultClock = () => Math.floor(performance.now());

interface Delivery {
  to: number; // panel position, or CONTROLLER
  port: number;
  bytes: Uint8Array;
}

export class VirtualBus {
  private readonly panels: PanelExports[] = [];
  private readonly flashes: PanelFlash[] = [];
  private readonly modules = new Map<string, WebAssembly.Module>();
  private readonly factory: WebAssembly.Module;
  private readonly clock: () => number;
  /** links[panel][port] = [neighbour (or CONTROLLER), its port], or undefined when unplugged. */
  private readonly links: Array<Array<[number, number] | undefined>> = [];
  private readonly queue: Delivery[] = [];
  private scheduled = false;
  /** Bytes the controller has put on the bus (for the bench). */
  bytesFromController = 0;
  /** Bytes carried over every wire, each hop counted (for the bench). */
  bytesOnWires = 0;

  constructor(
    panelWasm: string,
    wires: Wire[],
    private readonly toController: (bytes: Uint8Array) => void,
    options: VirtualBusOptions = {},
  ) {
    this.clock = options.clock ?? defaultClock;
    this.factory = new WebAssembly.Module(fs.readFileSync(panelWasm));
    wires.forEach((_, i) => {
      this.links.push([undefined, undefined, undefined]);
      const file = options.flashDir ? path.join(options.flashDir, `${i + 1}.fw`) : null;
      this.flashes.push(new PanelFlash(file, options.faults ?? [], () => this.panels[i].panel_address()));
      this.panels.push(this.boot(i));
    });
    wires.forEach((w, i) => {
      const parent = w.parent === 0 ? CONTROLLER : w.parent - 1;
      this.links[i][w.inEdge] = [parent, w.edge];
      if (parent !== CONTROLLER) this.links[parent][w.edge] = [i, w.inEdge];
    });
  }

  /** Starts panel `i` from the image its flash boots (the factory panel.wasm when none). */
  private boot(i: number): PanelExports {
    const host = {
      transmit: (port: number, bytes: Uint8Array) => this.transmit(i, port, bytes),
      linked: (port: number) => this.links[i][port] !== undefined,
      clock: this.clock,
      flash: (op: number, offset: number, data: Uint8Array, len: number) => this.flashes[i].op(op, offset, data, len),
    };
    const wasm = this.flashes[i].boot();
    if (wasm) {
      const key = this.flashes[i].committed!.readUInt32LE(12).toString(16) + ":" + wasm.length;
      try {
        const module = this.modules.get(key) ?? new WebAssembly.Module(new Uint8Array(wasm));
        const names = WebAssembly.Module.exports(module).map((e) => e.name);
        const missing = PANEL_EXPORTS.find((name) => !names.includes(name));
        if (missing) throw new Error(`it exports no ${missing}`);
        this.modules.set(key, module);
        return instantiatePanel(module, host);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        console.error(`[warn] panel ${i + 1}: cannot run its flashed image (${why}): running the built-in firmware`);
      }
    }
    return instantiatePanel(this.factory, host);
  }

  get size(): number {
    return this.panels.length;
  }

  /** The controller transmits: the packet goes to the panel wired to it. */
  sendFromController(bytes: Uint8Array): void {
    this.bytesFromController += bytes.length;
    this.bytesOnWires += bytes.length;
    const root = this.links.findIndex((ports) => ports.some((l) => l && l[0] === CONTROLLER));
    if (root < 0) return;
    const port = this.links[root].findIndex((l) => l && l[0] === CONTROLLER);
    this.enqueue({ to: root, port, bytes: bytes.slice() });
  }

  private transmit(from: number, port: number, bytes: Uint8Array): void {
    const link = this.links[from][port];
    if (!link) return;
    this.bytesOnWires += bytes.length;
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
      if (this.flashes[d.to].restartPending) {
        // BOOT_RESTART: the panel starts again (unaddressed), running its committed image
        this.flashes[d.to].restartPending = false;
        this.panels[d.to] = this.boot(d.to);
      }
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
