// Linear memory of the running core, sampled after each step of an exercise that touches the
// biggest buffers: the panel list, the edge list, the state query, the mirror snapshot and a body
// at the 32 KiB limit. WebAssembly memory never shrinks, so the last sample is the peak.
import { Client, frame, T } from "../tests/helpers/frames.js";
import type { BenchController } from "./controller.js";

export interface MemorySample {
  step: string;
  bytes: number;
  result: string;
}

/** The largest body the core accepts (413 above it). */
const BODY_LIMIT = 32768;

/** A valid PATCH body padded with trailing spaces to exactly `size` bytes. */
function paddedBody(size: number): string {
  return '{"brightness":120}'.padEnd(size, " ");
}

async function request(url: string, method: string, body?: string): Promise<string> {
  const res = await fetch(url, { method, body });
  const text = await res.text();
  return `${res.status}, ${text.length} B`;
}

async function frameStep(client: Client, send: Buffer, replyType: number): Promise<string> {
  client.send(send);
  const reply = await client.next(replyType);
  return `reply ${reply.raw.length} B`;
}

/** Runs the exercise and returns the memory after each step, with what the step got back. */
export async function exerciseMemory(ctrl: BenchController): Promise<MemorySample[]> {
  const samples: MemorySample[] = [];
  const sample = (step: string, result: string) => samples.push({ step, result, bytes: ctrl.running.core.memoryBytes });

  sample("booted, every panel discovered", "");
  sample("GET /api/panels", await request(`${ctrl.url}/api/panels`, "GET"));
  sample("GET /api/panels/edges", await request(`${ctrl.url}/api/panels/edges`, "GET"));
  const patch = JSON.stringify({ brightness: 90, baseColors: ["#FF0000", "#00FF00", "#0000FF"], palette: "lava" });
  sample("PATCH /api/appearance", await request(`${ctrl.url}/api/appearance`, "PATCH", patch));

  const client = await Client.connect(ctrl.wsUrl);
  try {
    await client.next(T.APP_STATE);
    sample("WS GET_EDGES_LIST", await frameStep(client, frame(T.GET_EDGES_LIST), T.EDGES_LIST));
    sample("WS GET_PANELS_STATES", await frameStep(client, frame(T.GET_PANELS_STATES), T.PANELS_STATES));
    sample("WS SET_MIRROR(1) snapshot", await frameStep(client, frame(T.SET_MIRROR, [1]), T.MIRROR_BATCH));
  } finally {
    client.close();
  }

  // The refused body first, so that any growth shows on the step that caused it.
  const url = `${ctrl.url}/api/appearance`;
  sample(`PATCH body of ${BODY_LIMIT + 1} B`, await request(url, "PATCH", paddedBody(BODY_LIMIT + 1)));
  sample(`PATCH body of ${BODY_LIMIT} B`, await request(url, "PATCH", paddedBody(BODY_LIMIT)));
  return samples;
}
