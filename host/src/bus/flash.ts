// An emulated panel's flash and bootloader storage: the image it runs, the one being written, and
// the test hooks that make it fail (--panel-fault). The committed image is kept in a file of its
// own (<data-dir>/.panels/<position>.fw), so after a restart of the host the panel runs what it
// was given. The bootloader's protocol is in the panel firmware (assembly/panel/boot.ts); this is
// only the part it writes to.
import fs from "node:fs";
import path from "node:path";
import { FLASH } from "./panel.js";
import { checkImage, IMAGE_HEADER } from "./image.js";

/** A fault injected into the panel whose bus address is `address`. */
export interface PanelFault {
  kind: "silent" | "nak" | "verify";
  address: number;
  /** nak: the page (128 bytes of image) whose write fails. */
  page?: number;
}

/** Parses a --panel-fault value: silent:ADDRESS, nak:ADDRESS:PAGE or verify:ADDRESS. */
export function parseFault(text: string): PanelFault {
  const m = /^(silent|verify):(\d+)$|^(nak):(\d+):(\d+)$/.exec(text);
  if (!m) throw new Error(`--panel-fault ${text}: expected silent:ADDRESS, nak:ADDRESS:PAGE or verify:ADDRESS`);
  if (m[3]) return { kind: "nak", address: Number(m[4]), page: Number(m[5]) };
  return { kind: m[1] as "silent" | "verify", address: Number(m[2]) };
}

const PAGE = 128;
/** The emulated part's flash: room for the largest image the controller accepts. */
const FLASH_SIZE = IMAGE_HEADER + 256 * 1024;

export class PanelFlash {
  private staged: Uint8Array | null = null;
  /** The image committed to boot (null: the factory firmware). */
  committed: Buffer | null = null;
  restartPending = false;

  constructor(
    private readonly file: string | null,
    private readonly faults: PanelFault[],
    private readonly address: () => number,
  ) {
    if (file && fs.existsSync(file)) {
      const image = fs.readFileSync(file);
      if (checkImage(image)) this.committed = image;
    }
  }

  /** The image the panel boots: its payload (a panel.wasm, which reports its own version); null for
   * the factory one. */
  boot(): Uint8Array | null {
    return this.committed ? this.committed.subarray(IMAGE_HEADER) : null;
  }

  private fault(kind: PanelFault["kind"], page?: number): boolean {
    const a = this.address();
    return this.faults.some((f) => f.kind === kind && f.address === a && (page === undefined || f.page === page));
  }

  /** panel_flash. */
  op(op: number, offset: number, data: Uint8Array, len: number): number {
    switch (op) {
      case FLASH.erase:
        if (this.fault("silent")) return -1;
        if (len > FLASH_SIZE) return -2;
        this.staged = new Uint8Array(len);
        return 0;
      case FLASH.write:
        if (!this.staged || offset + data.length > this.staged.length) return -2;
        if (this.fault("nak", Math.floor(offset / PAGE))) return -2;
        this.staged.set(data, offset);
        return 0;
      case FLASH.read: {
        if (!this.staged || offset > this.staged.length) return -2;
        const piece = this.staged.subarray(offset, offset + data.length);
        data.set(piece);
        if (this.fault("verify") && piece.length > 0) data[0] ^= 0x5a;
        return piece.length;
      }
      case FLASH.commit: {
        if (!this.staged || !checkImage(this.staged)) return -3;
        const image = Buffer.from(this.staged);
        if (this.file) {
          fs.mkdirSync(path.dirname(this.file), { recursive: true });
          fs.writeFileSync(`${this.file}.part`, image);
          fs.renameSync(`${this.file}.part`, this.file);
        }
        this.committed = image;
        this.staged = null;
        return 0;
      }
      case FLASH.restart:
        this.restartPending = true;
        return 0;
    }
    return -1;
  }
}
