// Throughput of the bench's requests over loopback against the running controller and against a
// bare server answering the same bytes, and the ratio between the two.
import http from "node:http";
import WebSocket from "ws";
import { T } from "../tests/helpers/frames.js";
import { GET_STATE, PATCH_APPEARANCE, PING_FRAME, SET_COLOR_FRAME, type HttpCase } from "./requests.js";
import { startBareServer, type RecordedAnswer, type RecordedFrames } from "./bare-server.js";
import { httpLoad, type LoadResult } from "./http-load.js";
import { wsLoad } from "./ws-load.js";
import type { BenchController } from "./controller.js";

export interface ThroughputRow {
  name: string;
  unit: string;
  controller: LoadResult;
  bare: LoadResult;
}

const HTTP_REQUESTS = 5000;
const CONCURRENCY = 16;
const WS_FRAMES = 20000;

function record(base: string, c: HttpCase): Promise<RecordedAnswer> {
  const body = c.bodies[0];
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(c.path, base), { method: c.method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () =>
        resolve({ method: c.method, path: c.path, status: res.statusCode ?? 0, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The frame the controller sends on connect and its answer to PING. */
function recordFrames(wsUrl: string): Promise<RecordedFrames> {
  const ws = new WebSocket(wsUrl);
  const received: Buffer[] = [];
  return new Promise((resolve, reject) => {
    ws.on("error", reject);
    ws.on("message", (data: Buffer) => {
      received.push(Buffer.from(data));
      if (received.length === 1) ws.send(PING_FRAME);
      const pong = received.find((f) => f[0] === T.PONG);
      if (pong) {
        ws.close();
        resolve({ greeting: received[0], pong });
      }
    });
  });
}

export async function measureThroughput(ctrl: BenchController): Promise<ThroughputRow[]> {
  const cases = [GET_STATE, PATCH_APPEARANCE];
  const answers = await Promise.all(cases.map((c) => record(ctrl.url, c)));
  const bare = await startBareServer(answers, await recordFrames(ctrl.wsUrl));
  try {
    const rows: ThroughputRow[] = [];
    for (const c of cases) {
      rows.push({
        name: c.name,
        unit: "req/s",
        controller: await httpLoad(ctrl.url, c, HTTP_REQUESTS, CONCURRENCY),
        bare: await httpLoad(bare.url, c, HTTP_REQUESTS, CONCURRENCY),
      });
    }
    rows.push({
      name: "WS SET_COLOR",
      unit: "frames/s",
      controller: await wsLoad(ctrl.wsUrl, SET_COLOR_FRAME, WS_FRAMES),
      bare: await wsLoad(bare.wsUrl, SET_COLOR_FRAME, WS_FRAMES),
    });
    return rows;
  } finally {
    await bare.close();
  }
}

export const THROUGHPUT_SETTINGS = { HTTP_REQUESTS, CONCURRENCY, WS_FRAMES };
