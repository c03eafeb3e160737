// A small HTTP load generator: a fixed number of requests from a few concurrent workers over
// keep-alive connections, so the figure is about handling requests, not opening sockets.
import http from "node:http";
import type { HttpCase } from "./requests.js";

export interface LoadResult {
  count: number;
  seconds: number;
  perSecond: number;
  /** Count per status code, to show requests that were not answered as expected (503 busy...). */
  statuses: Map<number, number>;
}

function send(agent: http.Agent, url: URL, c: HttpCase, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { agent, method: c.method, headers: body.length ? { "Content-Length": body.length } : {} },
      (res) => {
        res.resume(); // the body is read and dropped: the bench counts answers, it does not check them
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function run(base: string, c: HttpCase, count: number, concurrency: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL(c.path, base);
  const statuses = new Map<number, number>();
  let issued = 0;
  const worker = async () => {
    while (issued < count) {
      const body = c.bodies[issued++ % c.bodies.length];
      const status = await send(agent, url, c, body);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const start = process.hrtime.bigint();
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { count, seconds, perSecond: count / seconds, statuses };
}

/** A warm-up round (not counted), then the measured one. */
export async function httpLoad(base: string, c: HttpCase, count: number, concurrency: number): Promise<LoadResult> {
  await run(base, c, Math.ceil(count / 10), concurrency);
  return run(base, c, count, concurrency);
}
