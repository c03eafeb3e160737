// HTTP and WebSocket on one port: JSON API requests and /ws frames are handed to the core as
// bytes, and the core's answers are written back. Nothing here interprets a request; what this file
// adds is the transport's own defence (docs/desktop-host.md, "Hostile and slow clients"):
// - every request (and WebSocket upgrade) first goes through the core's Host/Origin policy
//   (core_http_allow); the core answers a refusal;
// - a request head must arrive within HEADERS_TIMEOUT_MS, the whole request within
//   REQUEST_TIMEOUT_MS; errors of the HTTP layer itself (a malformed request, oversized headers, a
//   timeout) are answered with the documented JSON body;
// - a connection has one request at a time in the core: a pipelined request waits (its socket paused)
//   until the answer before it has been taken by the socket down to HTTP_SEND_CAP bytes; a client
//   that pipelines more than MAX_PIPELINED requests is dropped, and one that takes nothing for
//   SEND_TIMEOUT_MS is dropped too (a client asking for large replies and never reading them holds
//   its own connection only, not the host's memory);
// - each WebSocket connection has a bounded send queue (WS_QUEUE_CAP bytes not yet taken by the
//   socket): while a client is behind, mirror batches are merged into one waiting batch; a client
//   that still does not keep up is closed (1008) and dropped WS_CLOSE_GRACE_MS later;
// - every connection is pinged every wsPingMs; one that answered nothing since the previous ping is
//   dead and dropped. With all of the core's connection slots taken, a newcomer takes the slot of the
//   connection whose client has sent no frame for the longest, if that is at least 2 × wsPingMs
//   (the web app sends a PING frame every 10 s, so it never qualifies); else it gets 1013.
import http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { METHOD_CODES, HTTP_HTML, HTTP_LENGTH_UNKNOWN } from "./abi.js";

/** A body longer than this (the core's document limit) is handed over as it arrives, never held
 * whole: only a route that streams (the firmware upload) takes it, any other answers 413. */
const STREAM_AT = 32 * 1024;
/** A declared body longer than this that does not stream is not read at all: the core answers 413 at once. */
const HOST_EARLY_CAP = 64 * 1024;
/** No valid frame is near this size; larger ones are closed with 1009 by the WebSocket layer. */
const WS_MAX_PAYLOAD = 64 * 1024;
/** A request head (request line and headers) must arrive within this. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A whole request, head and body, must arrive within this. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Bytes waiting for one WebSocket client (not yet taken by its socket) before it counts as behind. */
export const WS_QUEUE_CAP = 64 * 1024;
/** A client closed for being behind whose close handshake does not finish in this time is dropped. */
const WS_CLOSE_GRACE_MS = 2000;
/** A send queue that does not move for this long: the client is gone. */
const WS_STALL_MS = 10_000;
export const WS_PING_MS = 10_000;
/** An answer's bytes waiting in one connection's socket before its next pipelined request is taken. */
const HTTP_SEND_CAP = 64 * 1024;
/** Requests a client may send ahead of its answers (browsers send none ahead). */
const MAX_PIPELINED = 32;
/** A connection on which nothing moves (read or written) for this long is dropped (a reader that stopped). */
export const SEND_TIMEOUT_MS = 15_000;

/** The requests of one connection: one in the core at a time, the rest waiting in order. */
interface Pipeline {
  busy: boolean;
  waiting: (() => void)[];
}

export interface CoreGate {
  /** core_http_allow: false when the core refused the request and answered it. */
  allow(req: number, host: Uint8Array, origin: Uint8Array): boolean;
  http(req: number, method: number, url: Uint8Array, body: Uint8Array, bodyLength: number, more?: boolean): void;
  /** More of a streamed body (more false: its end). */
  httpMore(req: number, body: Uint8Array, more: boolean): void;
  wsOpen(conn: number): boolean;
  wsFrame(conn: number, frame: Uint8Array): void;
  wsClose(conn: number): void;
  /** Asks for a main-loop tick soon, after an event that may have queued work. */
  kick(): void;
  log?(level: string, message: string): void;
}

/** Where the core's answer to one request goes: a ServerResponse, or a raw socket (a refused upgrade). */
interface Sink {
  head(status: number, headers: http.OutgoingHttpHeaders): void;
  body(bytes: Uint8Array): void;
  end(): void;
  readonly started: boolean;
}

function responseSink(res: http.ServerResponse): Sink {
  return {
    head: (status, headers) => res.writeHead(status, headers),
    body: (bytes) => res.write(bytes),
    end: () => res.end(),
    get started() {
      return res.headersSent;
    },
  };
}

/** A whole answer written to a socket that never became an HTTP response (an upgrade), then closed. */
function socketSink(socket: Duplex): Sink {
  let status = 0;
  let type = "application/json";
  const parts: Uint8Array[] = [];
  return {
    head: (s, headers) => {
      status = s;
      type = String(headers["Content-Type"] ?? type);
    },
    body: (bytes) => parts.push(bytes),
    end: () => rawAnswer(socket, status, Buffer.concat(parts), type),
    get started() {
      return status !== 0;
    },
  };
}

function rawAnswer(socket: Duplex, status: number, body: Buffer | string, type = "application/json"): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const head =
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\nContent-Type: ${type}\r\n` +
    `Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head), bytes]));
}

/** CRC-16/MODBUS (reflected 0xA001, initial 0xFFFF), the frames' CRC. */
function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

const FRAME_HEADER = 14;
const BATCH_HEADER = 6;

/** A MIRROR_BATCH frame of the core (type 9, version 1, its payload size matching). */
export function isMirrorBatch(b: Uint8Array): boolean {
  return (
    b.length >= FRAME_HEADER + BATCH_HEADER &&
    b[0] === 9 &&
    b[1] === 1 &&
    b[2] === 0 &&
    (b[11] | (b[12] << 8)) === b.length - FRAME_HEADER
  );
}

/** One batch with the records of `a` then `b`, the newer millis, the counts added (as
 * native/src/ws_queue.c merges); null when it would not fit the 16-bit size or count. */
export function mergeMirrorBatches(a: Uint8Array, b: Uint8Array): Buffer | null {
  const count = (a[18] | (a[19] << 8)) + (b[18] | (b[19] << 8));
  const size = a.length - FRAME_HEADER + b.length - FRAME_HEADER - BATCH_HEADER;
  if (size > 0xffff || count > 0xffff) return null;
  const out = Buffer.concat([a, b.subarray(FRAME_HEADER + BATCH_HEADER)]);
  out.set(b.subarray(FRAME_HEADER, FRAME_HEADER + 4), FRAME_HEADER);
  out.writeUInt16LE(count, FRAME_HEADER + 4);
  out.writeUInt16LE(size, 11);
  out.writeUInt16LE(crc16(out.subarray(FRAME_HEADER)), 9);
  return out;
}

interface Conn {
  id: number;
  ws: WebSocket;
  inCore: boolean;
  /** The last frame the client sent (data, not pongs): who has been silent longest. */
  saidAt: number;
  /** Anything heard (a frame or a pong) since the last ping. */
  alive: boolean;
  /** The mirror batch waiting while the client is behind. */
  pending: Buffer | null;
  /** When the socket last took queued bytes (or the queue was empty). */
  movedAt: number;
  closing: boolean;
}

/** A syntactically valid WebSocket handshake request (RFC 6455 4.2.1), checked before the ws library
 * sees it (it would answer a bad one with text/html). */
function validUpgrade(req: http.IncomingMessage): boolean {
  const key = req.headers["sec-websocket-key"];
  const version = req.headers["sec-websocket-version"];
  return (
    req.method === "GET" &&
    (req.headers.upgrade ?? "").toLowerCase() === "websocket" &&
    typeof key === "string" &&
    /^[+/0-9A-Za-z]{21}[AQgw]==$/.test(key.trim()) &&
    (version === "13" || version === "8")
  );
}

/** How many Host headers the request carried (Node's parser keeps only the first). */
function hostCount(req: http.IncomingMessage): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === "host") n++;
  return n;
}

export class Server {
  readonly http: http.Server;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD });
  private readonly responses = new Map<number, Sink>();
  private readonly conns = new Map<number, Conn>();
  private nextReq = 1;
  private nextConn = 1;
  private readonly pinger: NodeJS.Timeout;
  private readonly pipelines = new WeakMap<Duplex, Pipeline>();
  /** Extra GET routes outside /api and /ws (for example the web UI), served by the host. */
  staticHandler: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | null = null;

  constructor(
    private readonly core: CoreGate,
    private readonly wsPingMs = WS_PING_MS,
  ) {
    this.http = http.createServer(
      {
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        connectionsCheckingInterval: 1000,
        requireHostHeader: false, // the core answers a request without Host (400 host_required)
      },
      (req, res) => this.gate(req, res),
    );
    this.http.timeout = SEND_TIMEOUT_MS; // no listener: Node destroys a socket idle this long
    this.http.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) =>
      this.onUpgrade(req, socket, head),
    );
    this.http.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
      // the HTTP layer's own errors, with the JSON body every other error has
      const [status, error] =
        err.code === "HPE_HEADER_OVERFLOW"
          ? [431, "header_too_large"]
          : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
            ? [408, "timeout"]
            : err.code === "HPE_INVALID_METHOD"
              ? [405, "method_not_allowed"]
              : [400, "bad_request"];
      if (err.code === "ECONNRESET" || !socket.writable) socket.destroy();
      else rawAnswer(socket, status, JSON.stringify({ error: error }));
    });
    this.pinger = setInterval(() => this.pingAll(), this.wsPingMs);
    this.pinger.unref();
  }

  private allowed(id: number, req: http.IncomingMessage): boolean {
    const origin = req.headers.origin;
    return this.core.allow(id, Buffer.from(req.headers.host ?? ""), Buffer.from(origin ?? ""));
  }

  /** Takes a request when its connection has no other under way (Node keeps the answers in order). */
  private gate(req: http.IncomingMessage, res: http.ServerResponse): void {
    const socket = req.socket;
    let p = this.pipelines.get(socket);
    if (!p) this.pipelines.set(socket, (p = { busy: false, waiting: [] }));
    const pipe = p;
    const start = () => {
      pipe.busy = true;
      res.once("close", () => {
        // the next request once this answer has (mostly) left for the socket
        const next = () => {
          pipe.busy = false;
          const run = pipe.waiting.shift();
          if (run) run();
          else if (socket.isPaused()) socket.resume();
        };
        if (socket.writableLength > HTTP_SEND_CAP && !socket.destroyed) socket.once("drain", next);
        else next();
      });
      this.onRequest(req, res);
    };
    if (!pipe.busy) return start();
    if (pipe.waiting.length >= MAX_PIPELINED) {
      this.core.log?.("warn", `http: a client sent more than ${MAX_PIPELINED} requests ahead of its answers, dropped`);
      socket.destroy();
      return;
    }
    socket.pause(); // what it sent is parsed already; nothing more is read until its answers go out
    pipe.waiting.push(start);
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (hostCount(req) > 1) {
      // Node keeps the first of several; RFC 9112 3.2 allows exactly one (the POSIX host answers the same)
      res.shouldKeepAlive = false;
      res.writeHead(400, { "Content-Type": "application/json" }).end('{"error":"bad_request"}');
      req.resume();
      return;
    }
    const id = this.nextReq++ >>> 0;
    this.responses.set(id, responseSink(res));
    res.on("close", () => this.responses.delete(id));
    if (!this.allowed(id, req)) {
      req.resume(); // the core answered; a body is not wanted
      return;
    }
    if (this.staticHandler && this.staticHandler(req, res)) {
      this.responses.delete(id);
      return;
    }
    const method = METHOD_CODES[req.method ?? ""] ?? 0;
    const streams = ["POST", "PUT", "PATCH"].includes(req.method ?? "");
    const url = Buffer.from(req.url ?? "/");
    const chunked = req.headers["content-length"] === undefined && req.headers["transfer-encoding"] !== undefined;
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > STREAM_AT && streams) {
      this.stream(id, req, method, Math.min(declared, HTTP_LENGTH_UNKNOWN - 1));
      return;
    }
    if (declared > HOST_EARLY_CAP) {
      // not read: the core answers 413 (or ignores a GET's body) at once, and the connection closes
      res.shouldKeepAlive = false;
      this.core.http(id, method, url, Buffer.alloc(0), Math.min(declared, HTTP_LENGTH_UNKNOWN - 1));
      this.core.kick();
      return;
    }
    // A body of known length up to HOST_EARLY_CAP is held whole; a chunked one up to STREAM_AT, then it
    // streams with its length unknown (a method without a body: the rest is only counted).
    const chunks: Buffer[] = [];
    let length = 0;
    let streaming = false;
    req.on("data", (chunk: Buffer) => {
      if (streaming) return; // stream() reads it now
      length += chunk.length;
      if (!chunked || length <= STREAM_AT) chunks.push(chunk);
      else if (streams) {
        streaming = true;
        this.stream(id, req, method, HTTP_LENGTH_UNKNOWN, Buffer.concat([...chunks, chunk]));
        chunks.length = 0;
      } else chunks.length = 0;
    });
    req.on("end", () => {
      if (streaming || !this.responses.has(id)) return; // streamed, or the client went away
      this.core.http(id, method, url, Buffer.concat(chunks), Math.min(length, HTTP_LENGTH_UNKNOWN - 1));
      this.core.kick();
    });
  }

  /** A long body: the core gets each piece as it arrives (one chunk in memory at a time, after `first`),
   * and the end. */
  private stream(id: number, req: http.IncomingMessage, method: number, length: number, first = Buffer.alloc(0)): void {
    const open = () => this.responses.has(id);
    this.core.http(id, method, Buffer.from(req.url ?? "/"), first, length, true);
    this.core.kick();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.core.httpMore(id, new Uint8Array(0), false); // always: an unfinished upload must end
      this.core.kick();
    };
    req.on("data", (chunk: Buffer) => {
      if (ended || !open()) return; // answered already (413, 409, 422): the rest is drained unread
      this.core.httpMore(id, chunk, true);
    });
    req.on("end", end);
    req.on("close", end); // the client went away before the end: the core sees a short body
  }

  private onUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => socket.destroy());
    if (hostCount(req) > 1) return rawAnswer(socket, 400, '{"error":"bad_request"}');
    const id = this.nextReq++ >>> 0;
    this.responses.set(id, socketSink(socket));
    const allowed = this.allowed(id, req);
    this.responses.delete(id);
    if (!allowed) return; // the core's answer went out on the socket
    if ((req.url ?? "").split("?")[0] !== "/ws") rawAnswer(socket, 404, '{"error":"not_found"}');
    else if (!validUpgrade(req)) rawAnswer(socket, 400, '{"error":"bad_request"}');
    else this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
  }

  /** The open connection whose client has said nothing for the longest, if that is long enough. */
  private quietest(now: number): Conn | null {
    let best: Conn | null = null;
    for (const c of this.conns.values()) {
      if (!c.inCore || c.closing || now - c.saidAt < 2 * this.wsPingMs) continue;
      if (!best || c.saidAt < best.saidAt) best = c;
    }
    return best;
  }

  private onSocket(ws: WebSocket): void {
    const now = performance.now();
    const conn = this.nextConn++ >>> 0;
    const c: Conn = {
      id: conn,
      ws,
      inCore: true,
      saidAt: now,
      alive: true,
      pending: null,
      movedAt: now,
      closing: false,
    };
    this.conns.set(conn, c);
    let open = this.core.wsOpen(conn);
    if (!open) {
      const victim = this.quietest(now);
      if (victim) {
        this.core.log?.("info", `ws: every connection in use; closing ${victim.id}, silent longest, for a newcomer`);
        this.leaveCore(victim);
        this.shut(victim, 1013, "room made for a new client");
        open = this.core.wsOpen(conn);
      }
    }
    if (!open) {
      this.conns.delete(conn);
      ws.close(1013, "too many connections");
      return;
    }
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      c.saidAt = performance.now();
      c.alive = true;
      if (!isBinary || !c.inCore || c.closing) return; // the protocol is binary only; text frames are dropped like bad frames
      this.core.wsFrame(conn, new Uint8Array(data.buffer, data.byteOffset, data.length));
      this.core.kick();
    });
    ws.on("pong", () => (c.alive = true));
    ws.on("close", () => {
      this.conns.delete(conn);
      this.leaveCore(c);
    });
    ws.on("error", () => ws.terminate());
  }

  private leaveCore(c: Conn): void {
    if (!c.inCore) return;
    c.inCore = false;
    this.core.wsClose(c.id);
  }

  /** Closes with `code`; a client that does not finish the close handshake soon is dropped. */
  private shut(c: Conn, code: number, reason: string): void {
    if (c.closing) return;
    c.closing = true;
    c.pending = null;
    c.ws.close(code, reason);
    setTimeout(() => c.ws.terminate(), WS_CLOSE_GRACE_MS).unref();
  }

  private pingAll(): void {
    const now = performance.now();
    for (const c of this.conns.values()) {
      if (!c.alive || (c.ws.bufferedAmount > 0 && now - c.movedAt > WS_STALL_MS)) {
        // nothing heard since the last ping, or nothing taken for a long while: the peer is gone
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      try {
        c.ws.ping();
      } catch {
        c.ws.terminate();
      }
    }
  }

  // The core's output side (host_http_* and host_ws_*).
  httpHead(req: number, status: number, length: number): void {
    const sink = this.responses.get(req);
    if (!sink || sink.started) return;
    // HTTP_HTML in the status: the setup page
    const html = (status & HTTP_HTML) !== 0;
    const headers: http.OutgoingHttpHeaders = {
      "Content-Type": html ? "text/html; charset=utf-8" : "application/json",
    };
    if (length >= 0) headers["Content-Length"] = length;
    sink.head(status & 0xffff, headers);
  }

  httpBody(req: number, bytes: Uint8Array): void {
    this.responses.get(req)?.body(bytes);
  }

  httpEnd(req: number): void {
    this.responses.get(req)?.end();
    this.responses.delete(req);
  }

  private write(c: Conn, bytes: Uint8Array): void {
    if (c.ws.bufferedAmount === 0) c.movedAt = performance.now();
    c.ws.send(bytes, { binary: true }, () => this.moved(c));
  }

  /** The socket took a frame: the batch that waited goes out once nothing else does. */
  private moved(c: Conn): void {
    c.movedAt = performance.now();
    if (c.pending && c.ws.bufferedAmount === 0 && !c.closing) {
      const batch = c.pending;
      c.pending = null;
      this.write(c, batch);
    }
  }

  private behind(c: Conn): void {
    this.core.log?.("warn", `ws: connection ${c.id} does not keep up (${c.ws.bufferedAmount} bytes waiting), closed`);
    this.shut(c, 1008, "too slow");
  }

  wsSend(conn: number, bytes: Uint8Array): void {
    const c = this.conns.get(conn);
    if (!c || !c.inCore || c.closing || c.ws.readyState !== c.ws.OPEN) return;
    if (isMirrorBatch(bytes) && (c.pending || c.ws.bufferedAmount > 0)) {
      // behind: merged into the batch that waits, sent once the socket has taken the rest
      const batch = c.pending ? mergeMirrorBatches(c.pending, bytes) : Buffer.from(bytes);
      if (!batch || c.ws.bufferedAmount + batch.length > WS_QUEUE_CAP) return this.behind(c);
      c.pending = batch;
      return;
    }
    if (c.pending) {
      // frames go out in order: the waiting batch first
      const batch = c.pending;
      c.pending = null;
      this.write(c, batch);
    }
    if (c.ws.bufferedAmount + bytes.length > WS_QUEUE_CAP) return this.behind(c);
    this.write(c, bytes);
  }

  wsBroadcast(bytes: Uint8Array): void {
    for (const conn of this.conns.keys()) this.wsSend(conn, bytes);
  }

  /** Requests the core forgot (it restarted or was swapped) get 500. */
  private failPending(): void {
    for (const [id, sink] of this.responses) {
      if (!sink.started) sink.head(500, { "Content-Type": "application/json" });
      sink.body(Buffer.from('{"error":"internal_error"}'));
      sink.end();
      this.responses.delete(id);
    }
  }

  /** After a core restart: pending requests get 500, connections are closed (the core forgot them). */
  resetAfterCoreRestart(): void {
    this.failPending();
    for (const c of this.conns.values()) {
      c.inCore = false;
      this.shut(c, 1011, "controller restarted");
    }
  }

  /** After a self-update swapped the core: requests in flight get 500 as after a restart, and every
   * open connection is opened again in the new core, which sends it APP_STATE (1013 if refused). */
  reopenAfterCoreSwap(): void {
    this.failPending();
    for (const c of this.conns.values()) {
      if (!c.inCore || c.closing) continue;
      c.inCore = this.core.wsOpen(c.id);
      if (!c.inCore) this.shut(c, 1013, "too many connections");
    }
  }

  listen(port: number, host?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.http.once("error", reject);
      this.http.listen(port, host, () => {
        const addr = this.http.address();
        resolve(typeof addr === "object" && addr ? addr.port : port);
      });
    });
  }

  close(): Promise<void> {
    clearInterval(this.pinger);
    for (const c of this.conns.values()) c.ws.terminate();
    this.http.closeAllConnections();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }
}
