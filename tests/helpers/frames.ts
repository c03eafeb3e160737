// WebSocket frames as the spec defines them, built and checked with the `crc` package's
// CRC-16/MODBUS (the same parameters as the spec's CRC-16/IBM: reflected 0xA001, init 0xFFFF), an
// implementation independent of the core's. And a client that collects frames by type.
import { crc16modbus } from "crc";
import WebSocket from "ws";

export const T = {
  TOGGLE: 1,
  SET_COLOR: 3,
  GET_EDGES_LIST: 4,
  GET_PANELS_STATES: 5,
  PANELS_STATES: 6,
  EDGES_LIST: 7,
  ANIMATION_TRIGGER: 8,
  MIRROR_BATCH: 9,
  SET_MIRROR: 10,
  PING: 11,
  PONG: 12,
  APP_STATE: 13,
} as const;

/** A client frame: 14-byte header (or the 13-byte form the spec's table draws) plus payload. */
export function frame(
  type: number,
  payload: number[] | Uint8Array = [],
  opts: { headerLength?: 13 | 14; nonce?: number; version?: number } = {},
): Buffer {
  const p = Buffer.from(payload);
  const headerLength = opts.headerLength ?? 14;
  const b = Buffer.alloc(headerLength + p.length);
  b.writeUInt8(type, 0);
  b.writeUInt16LE(opts.version ?? 1, 1);
  b.writeUInt32LE((opts.nonce ?? 0x01020304) >>> 0, 3);
  b.writeUInt16LE(crc16modbus(b.subarray(0, 7)), 7);
  b.writeUInt16LE(crc16modbus(p), 9);
  b.writeUInt16LE(p.length, 11);
  p.copy(b, headerLength);
  return b;
}

export interface Frame {
  type: number;
  version: number;
  nonce: number;
  payload: Buffer;
  raw: Buffer;
}

/** Parses a controller frame and checks every header rule byte for byte; throws on any violation. */
export function parseFrame(raw: Buffer): Frame {
  if (raw.length < 14) throw new Error(`frame of ${raw.length} bytes is shorter than the 14-byte header`);
  const size = raw.readUInt16LE(11);
  if (raw.length !== 14 + size) throw new Error(`frame length ${raw.length} != 14 + payloadSize ${size}`);
  if (raw.readUInt16LE(1) !== 1) throw new Error("protocolVersion is not 1");
  if (raw.readUInt16LE(7) !== crc16modbus(raw.subarray(0, 7))) throw new Error("bad header CRC");
  const payload = raw.subarray(14);
  if (raw.readUInt16LE(9) !== crc16modbus(payload)) throw new Error("bad payload CRC");
  if (raw[13] !== 0) throw new Error("reserved byte 13 is not 0");
  return { type: raw[0], version: 1, nonce: raw.readUInt32LE(3), payload, raw };
}

/** One bus packet of a MIRROR_BATCH payload (after its 6-byte batch header, each packet is
 * address, type, length, then the packet itself): the whole packet, header included, and its body
 * after the 5-byte bus header. */
export interface MirroredPacket {
  address: number;
  type: number;
  packet: Buffer;
  body: Buffer;
}

export function mirroredPackets(f: Frame): MirroredPacket[] {
  const p = f.payload;
  const out: MirroredPacket[] = [];
  for (let o = 6; o < p.length; o += 3 + p[o + 2]) {
    const packet = p.subarray(o + 3, o + 3 + p[o + 2]);
    out.push({ address: p[o], type: p[o + 1], packet, body: packet.subarray(5) });
  }
  return out;
}

export class Client {
  readonly frames: Frame[] = [];
  private waiters: Array<() => void> = [];
  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data: Buffer) => {
      this.frames.push(parseFrame(Buffer.from(data)));
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async connect(url: string): Promise<Client> {
    const ws = new WebSocket(url);
    const client = new Client(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return client;
  }

  send(bytes: Buffer): void {
    this.ws.send(bytes);
  }

  /** Takes the first unconsumed frame of `type`, waiting up to `timeoutMs` for it. */
  async next(type: number, timeoutMs = 2000): Promise<Frame> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const i = this.frames.findIndex((f) => f.type === type);
      if (i >= 0) return this.frames.splice(i, 1)[0];
      const left = end - Date.now();
      if (left <= 0) throw new Error(`no frame of type ${type} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Resolves true if no frame of `type` arrives within `ms`. */
  async none(type: number, ms = 200): Promise<boolean> {
    try {
      await this.next(type, ms);
      return false;
    } catch {
      return true;
    }
  }

  /** A fresh connection's PING answered: the host still serves newcomers. */
  static async pingPong(url: string): Promise<void> {
    const c = await Client.connect(url);
    try {
      await c.sync();
    } finally {
      c.close();
    }
  }

  /** A PING/PONG round trip: everything sent before it has been handled. */
  async sync(): Promise<void> {
    this.send(frame(T.PING));
    await this.next(T.PONG);
  }

  close(): void {
    this.ws.close();
  }
}
