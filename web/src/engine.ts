// The live preview's engine: one instance of the real panel firmware (build/panel.wasm) per panel,
// fed the controller's MIRROR_BATCH records exactly as the bus would deliver them, and rendered on
// the browser's clock aligned to the controller's (controllerMillis). No DOM here: the bench runs it
// in Node.js too. Packets reach a panel through host/src/bus/panel.ts, as on the desktop host.
import { instantiatePanel, deliver, type PanelExports } from "../../host/src/bus/panel.js";

const T_RESET = 1;
const T_ASSIGN = 2;
const BUS_VERSION = 6;
const ADDR_LINK = 255;

/** CRC-8/SMBUS (polynomial 0x07, initial 0), over bytes 0-3 and the payload (docs/bus-protocol.md). */
function crc8(bytes: Uint8Array): number {
  let crc = 0;
  bytes.forEach((b, i) => {
    if (i === 4) return;
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 0x80 ? ((crc << 1) ^ 7) & 0xff : (crc << 1) & 0xff;
  });
  return crc;
}

function packet(address: number, type: number, payload: number[]): Uint8Array {
  const b = new Uint8Array([address, type, 5 + payload.length, BUS_VERSION, 0, ...payload]);
  b[4] = crc8(b);
  return b;
}

const RESET = packet(0, T_RESET, []);

interface Slot {
  address: number;
  fw: PanelExports;
}

export class PreviewEngine {
  private slots: Slot[] = [];
  private byAddress = new Map<number, PanelExports>();
  /** The clock every panel reads (panel_clock_ms), set before each delivery and render. */
  private clock = 0;
  /** Controller ms minus local ms: NaN until the first batch. */
  private offset = NaN;
  private lastLocal = 0;

  constructor(private readonly module: WebAssembly.Module) {}

  /** The panels to show, by address: a panel instance each, assigned its address as discovery would. */
  setPanels(addresses: number[]): void {
    const keep = new Map(this.byAddress);
    this.slots = addresses.map((address) => {
      let fw = keep.get(address);
      if (!fw) {
        fw = instantiatePanel(this.module, {
          transmit: () => {}, // replies (HELLO) go nowhere: the controller already knows its panels
          linked: () => false,
          clock: () => this.clock,
        });
        deliver(fw, 0, packet(ADDR_LINK, T_ASSIGN, [address, 0]));
      }
      return { address, fw };
    });
    this.byAddress = new Map(this.slots.map((s) => [s.address, s.fw]));
  }

  get size(): number {
    return this.slots.length;
  }

  /** A new connection: every panel forgets what it was sent (the snapshot that follows replays the
   * current state), and the clocks are aligned afresh (the controller may have restarted). */
  reset(): void {
    for (const s of this.slots) {
      deliver(s.fw, 0, RESET);
      deliver(s.fw, 0, packet(ADDR_LINK, T_ASSIGN, [s.address, 0]));
    }
    this.offset = NaN;
  }

  /** The panel clock at local time `local` (ms, performance.now()). */
  clockAt(local: number): number {
    return Number.isNaN(this.offset) ? 0 : (local + this.offset) >>> 0;
  }

  /**
   * One MIRROR_BATCH payload (controllerMillis u32, count u16, then records: address, type, size,
   * the packet), received at local time `local`. The panels get each packet at controllerMillis.
   */
  batch(payload: Uint8Array, local: number): void {
    if (payload.length < 6) return;
    const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    const millis = view.getUint32(0, true);
    this.align(millis, local);
    this.clock = millis;
    for (let o = 6; o + 3 <= payload.length;) {
      const address = payload[o];
      const size = payload[o + 2];
      const bytes = payload.subarray(o + 3, o + 3 + size);
      o += 3 + size;
      if (bytes.length !== size) break;
      if (address === 0) for (const s of this.slots) deliver(s.fw, 0, bytes);
      else {
        const fw = this.byAddress.get(address);
        if (fw) deliver(fw, 0, bytes);
      }
    }
  }

  /**
   * Keeps the local clock's view of the controller clock at or after every batch's time: the offset
   * only grows to the latest sample (the one with the least delay), so a panel never renders before
   * a packet it has been given; it eases back by 1 ms a second for drift.
   */
  private align(millis: number, local: number): void {
    if (Number.isNaN(this.offset)) {
      this.offset = millis - local;
    } else {
      this.offset -= Math.max(0, local - this.lastLocal) / 1000;
      const ahead = (millis - this.clockAt(local)) | 0; // signed, so the u32 wrap is harmless
      if (ahead > 0 || ahead < -10000) this.offset += ahead;
    }
    this.lastLocal = local;
  }

  /** What each panel's LED shows at local time `local` (black when off, brightness applied), into
   * `out` as 0xRRGGBB in the order of setPanels. */
  render(local: number, out: Uint32Array): void {
    this.clock = this.clockAt(local);
    const n = Math.min(out.length, this.slots.length);
    for (let i = 0; i < n; i++) out[i] = this.slots[i].fw.panel_led() >>> 0;
  }
}
