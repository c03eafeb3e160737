// HTTP and WebSocket on one port: JSON API requests and /ws frames are handed to the core as
// bytes, and the core's answers are written back. Nothing here interprets a request.
import http from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { METHOD_CODES, HTTP_HTML } from "./abi.js";

/** The host reads at most this much of a request body; the core's own limit is far below it. */
const HOST_BODY_CAP = 1 << 20;
/** A body longer than this (the core's document limit) is handed over as it arrives, never held
 * whole: only a route that streams (the firmware upload) takes it, any other answers 413. */
const STREAM_AT = 32 * 1024;
/** No valid frame is near this size; larger ones are refused by the WebSocket layer itself. */
const WS_MAX_PAYLOAD = 64 * 1024;

export interface CoreGate {
  http(req: number, method: number, url: Uint8Array, body: Uint8Array, bodyLength: number, more?: boolean): void;
  /** More of a streamed body (more false: its end). */
  httpMore(req: number, body: Uint8Array, more: boolean): void;
  wsOpen(conn: number): boolean;
  wsFrame(conn: number, frame: Uint8Array): void;
  wsClose(conn: number): void;
  /** Asks for a main-loop tick soon, after an event that may have queued work. */
  kick(): void;
}

export class Server {
  readonly http: http.Server;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD });
  private readonly responses = new Map<number, http.ServerResponse>();
  private readonly sockets = new Map<number, WebSocket>();
  private nextReq = 1;
  private nextConn = 1;
  /** Extra GET routes outside /api and /ws (for example the web UI), served by the host. */
  staticHandler: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | null = null;

  constructor(private readonly core: CoreGate) {
    this.http = http.createServer((req, res) => this.onRequest(req, res));
    this.http.on("upgrade", (req, socket, head) => {
      if ((req.url ?? "").split("?")[0] !== "/ws") {
        socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
    });
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.staticHandler && this.staticHandler(req, res)) return;
    const id = this.nextReq++ >>> 0;
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (declared > STREAM_AT && ["POST", "PUT", "PATCH"].includes(req.method ?? "")) {
      this.stream(id, req, res, declared);
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    req.on("data", (chunk: Buffer) => {
      length += chunk.length;
      if (length <= HOST_BODY_CAP) chunks.push(chunk);
    });
    req.on("end", () => {
      this.responses.set(id, res);
      res.on("close", () => this.responses.delete(id));
      const method = METHOD_CODES[req.method ?? ""] ?? 0;
      const body = length <= HOST_BODY_CAP ? Buffer.concat(chunks) : Buffer.alloc(0);
      this.core.http(id, method, Buffer.from(req.url ?? "/"), body, length);
      this.core.kick();
    });
  }

  /** A long body: the core gets each piece as it arrives (one chunk in memory at a time), and the end. */
  private stream(id: number, req: http.IncomingMessage, res: http.ServerResponse, length: number): void {
    this.responses.set(id, res);
    res.on("close", () => this.responses.delete(id));
    const open = () => this.responses.has(id);
    this.core.http(
      id,
      METHOD_CODES[req.method ?? ""] ?? 0,
      Buffer.from(req.url ?? "/"),
      new Uint8Array(0),
      length,
      true,
    );
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

  private onSocket(ws: WebSocket): void {
    const conn = this.nextConn++ >>> 0;
    this.sockets.set(conn, ws);
    if (!this.core.wsOpen(conn)) {
      this.sockets.delete(conn);
      ws.close(1013, "too many connections");
      return;
    }
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return; // the protocol is binary only; text frames are dropped like bad frames
      this.core.wsFrame(conn, new Uint8Array(data.buffer, data.byteOffset, data.length));
      this.core.kick();
    });
    ws.on("close", () => {
      this.sockets.delete(conn);
      this.core.wsClose(conn);
    });
    ws.on("error", () => ws.terminate());
  }

  // The core's output side (host_http_* and host_ws_*).
  httpHead(req: number, status: number, length: number): void {
    const res = this.responses.get(req);
    if (!res || res.headersSent) return;
    // HTTP_HTML in the status: the setup page
    const html = (status & HTTP_HTML) !== 0;
    const headers: http.OutgoingHttpHeaders = {
      "Content-Type": html ? "text/html; charset=utf-8" : "application/json",
    };
    if (length >= 0) headers["Content-Length"] = length;
    res.writeHead(status & 0xffff, headers);
  }

  httpBody(req: number, bytes: Uint8Array): void {
    this.responses.get(req)?.write(bytes);
  }

  httpEnd(req: number): void {
    this.responses.get(req)?.end();
    this.responses.delete(req);
  }

  wsSend(conn: number, bytes: Uint8Array): void {
    const ws = this.sockets.get(conn);
    if (ws && ws.readyState === ws.OPEN) ws.send(bytes, { binary: true });
  }

  wsBroadcast(bytes: Uint8Array): void {
    for (const conn of this.sockets.keys()) this.wsSend(conn, bytes);
  }

  /** After a core restart: pending requests get 500, connections are closed (the core forgot them). */
  resetAfterCoreRestart(): void {
    for (const [id, res] of this.responses) {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end('{"error":"internal_error"}');
      this.responses.delete(id);
    }
    for (const ws of this.sockets.values()) ws.close(1011, "controller restarted");
  }

  /** After a self-update swapped the core: requests in flight get 500 as after a restart, and every
   * open connection is opened again in the new core, which sends it APP_STATE (1013 if refused). */
  reopenAfterCoreSwap(): void {
    for (const [id, res] of this.responses) {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end('{"error":"internal_error"}');
      this.responses.delete(id);
    }
    for (const [conn, ws] of this.sockets)
      if (!this.core.wsOpen(conn)) {
        this.sockets.delete(conn);
        ws.close(1013, "too many connections");
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
    for (const ws of this.sockets.values()) ws.terminate();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }
}
