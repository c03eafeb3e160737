// Clients that do what browsers and libraries will not: any Host and Origin, malformed requests as
// raw bytes, and a WebSocket client that frames every byte itself (masking, fragments, control frames,
// or none of the rules), for the hostile-client tests (tests/hostile-*.test.ts).
import net from "node:net";
import http from "node:http";
import crypto from "node:crypto";
import { checkResponse } from "./openapi.js";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The answer's body parsed as JSON, or undefined. */
  json: any;
}

function parseAnswer(raw: Buffer): RawAnswer {
  const text = raw.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine, ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const c = l.indexOf(":");
    if (c > 0) headers[l.slice(0, c).trim().toLowerCase()] = l.slice(c + 1).trim();
  }
  let body = end < 0 ? "" : raw.subarray(end + 4).toString("utf8");
  if (headers["transfer-encoding"] === "chunked") {
    let out = "";
    let rest = body;
    for (;;) {
      const nl = rest.indexOf("\r\n");
      const size = parseInt(rest.slice(0, nl), 16);
      if (!(size > 0)) break;
      out += rest.slice(nl + 2, nl + 2 + size);
      rest = rest.slice(nl + 2 + size + 2);
    }
    body = out;
  } else if (headers["content-length"] !== undefined) body = body.slice(0, Number(headers["content-length"]));
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body, json };
}

/** Sends `bytes` on a fresh connection and reads the first answer (until the server closes, or the
 * answer's length is in). `end`: half-close after sending (a request cut short is then never
 * completed; the answer may be none: status NaN). */
export function rawRequest(port: number, bytes: Buffer | string, timeoutMs = 15000, end = false): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`no answer to ${JSON.stringify(String(bytes).slice(0, 80))}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      resolve(parseAnswer(Buffer.concat(chunks)));
    };
    s.on("data", (d) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      const end = all.indexOf("\r\n\r\n");
      if (end < 0) return;
      const a = parseAnswer(all);
      const len = a.headers["content-length"];
      if (len !== undefined && all.length >= end + 4 + Number(len)) done();
      if (a.headers["transfer-encoding"] === "chunked" && all.subarray(end).includes("\r\n0\r\n\r\n")) done();
    });
    s.on("end", done);
    s.on("error", () => (chunks.length ? done() : reject(new Error("connection failed"))));
    s.write(bytes);
    if (end) s.end();
  });
}

/** An HTTP request with the headers exactly as given (Host and Origin included). */
export function request(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d) => chunks.push(d));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) h[k] = String(v);
        // a well-formed request (raw bytes above may be malformed anywhere): held to docs/openapi.yaml
        if (path.startsWith("/api/")) checkResponse(method, path, res.statusCode ?? 0, h["content-type"] ?? null, text);
        resolve({ status: res.statusCode ?? 0, headers: h, body: text, json });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

export interface WsFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** A WebSocket client over a raw socket: every frame built by hand. */
export class RawWs {
  readonly frames: WsFrame[] = [];
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  /** Resolves when the server closes the TCP connection (or it fails). */
  readonly closed: Promise<void>;
  /** The code of the server's close frame, if one came. */
  closeCode: number | undefined;
  /** Answer pings with pongs (a live client); off: a dead peer that still reads. */
  autoPong = true;

  private constructor(readonly socket: net.Socket) {
    this.closed = new Promise((resolve) => {
      socket.on("close", () => {
        this.wake();
        resolve();
      });
    });
    socket.on("error", () => {});
    socket.on("data", (d) => this.onData(d));
  }

  /** Opens /ws; resolves with the client once the server said 101, rejects with the answer otherwise. */
  static open(port: number, headers: Record<string, string> = {}): Promise<RawWs> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, "127.0.0.1");
      const key = crypto.randomBytes(16).toString("base64");
      const extra = Object.entries({ Host: `localhost:${port}`, ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      let head = Buffer.alloc(0);
      const onData = (d: Buffer) => {
        head = Buffer.concat([head, d]);
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return;
        s.off("data", onData);
        const answer = parseAnswer(head);
        if (answer.status !== 101) {
          s.destroy();
          reject(Object.assign(new Error(`upgrade refused: ${answer.status} ${answer.body}`), { answer }));
          return;
        }
        const ws = new RawWs(s);
        const rest = head.subarray(end + 4);
        if (rest.length) ws.onData(rest);
        resolve(ws);
      };
      s.on("data", onData);
      s.on("error", reject);
      s.on("close", () => reject(new Error("closed during the handshake")));
      s.write(
        `GET /ws HTTP/1.1\r\n${extra}Upgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const b = this.buf;
      if (b.length < 2) break;
      let len = b[1] & 0x7f;
      let at = 2;
      if (len === 126) {
        if (b.length < 4) break;
        len = b.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (b.length < 10) break;
        len = Number(b.readBigUInt64BE(2));
        at = 10;
      }
      if (b.length < at + len) break;
      const f = { fin: (b[0] & 0x80) !== 0, opcode: b[0] & 0x0f, payload: Buffer.from(b.subarray(at, at + len)) };
      this.buf = b.subarray(at + len);
      if (f.opcode === 0x9 && this.autoPong) this.send(0xa, f.payload);
      if (f.opcode === 0x8 && f.payload.length >= 2) this.closeCode = f.payload.readUInt16BE(0);
      this.frames.push(f);
    }
    this.wake();
  }

  /** One frame: masked unless told otherwise, final unless told otherwise. */
  send(opcode: number, payload: Buffer | Uint8Array = Buffer.alloc(0), opts: { fin?: boolean; mask?: boolean } = {}) {
    this.socket.write(RawWs.encode(opcode, payload, opts));
  }

  static encode(opcode: number, payload: Buffer | Uint8Array, opts: { fin?: boolean; mask?: boolean } = {}): Buffer {
    const p = Buffer.from(payload);
    const mask = opts.mask ?? true;
    const head: number[] = [((opts.fin ?? true) ? 0x80 : 0) | opcode];
    const m = mask ? 0x80 : 0;
    if (p.length < 126) head.push(m | p.length);
    else if (p.length < 65536) head.push(m | 126, p.length >> 8, p.length & 0xff);
    else {
      head.push(m | 127, 0, 0, 0, 0);
      head.push((p.length >>> 24) & 0xff, (p.length >>> 16) & 0xff, (p.length >>> 8) & 0xff, p.length & 0xff);
    }
    if (!mask) return Buffer.concat([Buffer.from(head), p]);
    const key = crypto.randomBytes(4);
    const body = Buffer.alloc(p.length);
    for (let i = 0; i < p.length; i++) body[i] = p[i] ^ key[i & 3];
    return Buffer.concat([Buffer.from(head), key, body]);
  }

  /** Waits for a frame that `pred` accepts (looking at every frame received so far and later ones). */
  async waitFor(pred: (f: WsFrame) => boolean, timeoutMs = 10000): Promise<WsFrame> {
    const end = Date.now() + timeoutMs;
    let seen = 0;
    for (;;) {
      for (; seen < this.frames.length; seen++) if (pred(this.frames[seen])) return this.frames[seen];
      if (this.socket.destroyed) throw new Error("connection closed");
      const left = end - Date.now();
      if (left <= 0) throw new Error("frame not received in time");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Resolves once the server has closed the connection; rejects after timeoutMs. */
  async waitClosed(timeoutMs = 10000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.closed,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("not closed in time")), timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A seeded xorshift32, so a fuzz run can be replayed from the seed it prints. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}
