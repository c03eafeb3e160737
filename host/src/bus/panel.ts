// One panel's firmware (build/panel.wasm) as a host runs it: its exports, the imports it needs and
// how a packet is handed to it. Shared by the desktop host's virtual bus and the web app's live
// preview (web/src/engine.ts), which run the very same module: nothing here uses Node.js.

/** The panel firmware's exports (build/panel.wasm). */
export interface PanelExports {
  memory: WebAssembly.Memory;
  panel_rx_buffer(): number;
  panel_rx(port: number, len: number): void;
  panel_address(): number;
  panel_color(): number;
  panel_render(now: number): number;
  panel_led(): number;
  panel_is_on(): number;
}

/** The exports a panel firmware must have for a host to run it. */
export const PANEL_EXPORTS = [
  "memory",
  "panel_rx_buffer",
  "panel_rx",
  "panel_address",
  "panel_color",
  "panel_render",
  "panel_led",
  "panel_is_on",
] as const;

/** What a panel needs from its host (assembly/panel/imports.ts): a wire model and a clock. */
export interface PanelHost {
  /** The panel transmits `bytes` (borrowed: copy what you keep) on edge port `port`. */
  transmit(port: number, bytes: Uint8Array): void;
  /** Link sense: something is plugged into edge port `port`. */
  linked(port: number): boolean;
  /** The panel clock in ms (taken as u32). */
  clock(): number;
  /** The panel's flash (panel_flash, assembly/panel/imports.ts): op, offset, the data (WRITE: to
   * store; READ: to fill, return the count), len (ERASE: the image's size). Without it the panel has no bootloader (-1). */
  flash?(op: number, offset: number, data: Uint8Array, len: number): number;
}

/** panel_flash ops (assembly/panel/imports.ts). */
export const FLASH = { erase: 0, write: 1, read: 2, commit: 3, restart: 4 } as const;

/** One running panel: an instance of the panel firmware wired to `host`. */
export function instantiatePanel(module: WebAssembly.Module, host: PanelHost): PanelExports {
  let exports: PanelExports | undefined;
  const imports = {
    tessera_panel: {
      panel_tx: (port: number, ptr: number, len: number) =>
        host.transmit(port, new Uint8Array(exports!.memory.buffer, ptr, len)),
      panel_linked: (port: number) => (host.linked(port) ? 1 : 0),
      panel_clock_ms: () => host.clock() >>> 0,
      panel_flash: (op: number, offset: number, ptr: number, len: number) => {
        if (!host.flash) return -1;
        const data =
          op === FLASH.write || op === FLASH.read
            ? new Uint8Array(exports!.memory.buffer, ptr, len)
            : new Uint8Array(0);
        return host.flash(op, offset >>> 0, data, len >>> 0);
      },
    },
  };
  exports = new WebAssembly.Instance(module, imports).exports as unknown as PanelExports;
  return exports;
}

/** Delivers one whole bus packet (header included) to `panel` as received on edge `port`. */
export function deliver(panel: PanelExports, port: number, bytes: Uint8Array): void {
  new Uint8Array(panel.memory.buffer, panel.panel_rx_buffer(), bytes.length).set(bytes);
  panel.panel_rx(port, bytes.length);
}
