// Frames per second over one WebSocket for a command that has no reply: N frames are sent, then
// a PING; the PONG comes back only after the server has handled every frame before it.
import WebSocket from "ws";
import { PING_FRAME } from "./requests.js";
import { T } from "../tests/helpers/frames.js";
import type { LoadResult } from "./http-load.js";

function connect(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

function pong(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      if (data[0] !== T.PONG) return; // APP_STATE and other frames are not what we wait for
      ws.off("message", onMessage);
      resolve();
    };
    ws.on("message", onMessage);
  });
}

async function burst(ws: WebSocket, bytes: Buffer, count: number): Promise<number> {
  const start = process.hrtime.bigint();
  const done = pong(ws);
  for (let i = 0; i < count; i++) ws.send(bytes);
  ws.send(PING_FRAME);
  await done;
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** A warm-up burst (not counted), then the measured one. */
export async function wsLoad(url: string, bytes: Buffer, count: number): Promise<LoadResult> {
  const ws = await connect(url);
  try {
    await burst(ws, bytes, Math.ceil(count / 10));
    const seconds = await burst(ws, bytes, count);
    return { count, seconds, perSecond: count / seconds, statuses: new Map() };
  } finally {
    ws.terminate();
  }
}
