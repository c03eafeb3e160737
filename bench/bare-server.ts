// The baseline: a bare Node `http` server and `ws` server that answer the bench's requests with
// bytes recorded from the controller (same status, same body, same frames) and do nothing else.
// The controller's throughput divided by this one is what the core and its host glue cost.
import http from "node:http";
import { WebSocketServer } from "ws";
import { T } from "../tests/helpers/frames.js";

export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body: Buffer;
}

export interface RecordedFrames {
  /** Sent to every client on connect (the controller's APP_STATE). */
  greeting: Buffer;
  pong: Buffer;
}

export interface BareServer {
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

export async function startBareServer(answers: RecordedAnswer[], frames: RecordedFrames): Promise<BareServer> {
  const routes = new Map(answers.map((a) => [`${a.method} ${a.path}`, a]));
  const server = http.createServer((req, res) => {
    // Read the whole body first, as the controller does before it answers.
    req.resume();
    req.on("end", () => {
      const answer = routes.get(`${req.method} ${req.url}`);
      const status = answer?.status ?? 404;
      const body = answer?.body ?? Buffer.from('{"error":"not_found"}');
      res.writeHead(status, { "Content-Type": "application/json", "Content-Length": body.length });
      res.end(body);
    });
  });
  const wss = new WebSocketServer({ server, path: "/ws" });
  wss.on("connection", (ws) => {
    ws.send(frames.greeting);
    ws.on("message", (data: Buffer) => {
      if (data[0] === T.PING) ws.send(frames.pong);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://localhost:${port}`,
    wsUrl: `ws://localhost:${port}/ws`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
}
