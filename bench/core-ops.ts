// Per-operation cost inside the core: requests and frames are handed to a core instance directly,
// with no server around it, and timed over many iterations.
import { BenchCore } from "./bench-core.js";
import { GET_STATE, PATCH_APPEARANCE, SET_COLOR_FRAME, type HttpCase } from "./requests.js";

export interface CoreOpResult {
  name: string;
  iterations: number;
  nsPerOp: number;
  /** Answers whose status was not the expected one (a full queue would show here). */
  unexpected: number;
  /** Bus packets the core sent per operation: shows that the operation really did its work. */
  busPacketsPerOp: number;
  note: string;
}

const WARMUP = 2000;
const ITERATIONS = 20000;
/** PATCH is queued for the main loop; ticking every 8 requests keeps the queue of 16 from filling. */
const TICK_EVERY = 8;

/** Times `op` after a warm-up; `op` returns false for an unexpected answer. */
function measure(bench: BenchCore, name: string, note: string, op: (i: number) => boolean): CoreOpResult {
  for (let i = 0; i < WARMUP; i++) op(i);
  let unexpected = 0;
  const packets = bench.busPackets;
  const start = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) if (!op(i)) unexpected++;
  const ns = Number(process.hrtime.bigint() - start);
  const busPacketsPerOp = (bench.busPackets - packets) / ITERATIONS;
  return { name, iterations: ITERATIONS, nsPerOp: ns / ITERATIONS, unexpected, busPacketsPerOp, note };
}

function httpOp(bench: BenchCore, c: HttpCase, tickEvery: number, note: string): CoreOpResult {
  return measure(bench, c.name, note, (i) => {
    bench.http(c, i);
    const ok = bench.lastStatus === c.expectedStatus;
    if (tickEvery && i % tickEvery === tickEvery - 1) bench.core.tick();
    return ok;
  });
}

function frameOp(bench: BenchCore): CoreOpResult {
  return measure(bench, "WS SET_COLOR (panel 1)", "frame → one bus packet", () => {
    bench.core.wsFrame(1, SET_COLOR_FRAME);
    return true;
  });
}

/** What a call pays whatever it does (the main loop's checks, the collection at the end of an export). */
function idleTickOp(bench: BenchCore): CoreOpResult {
  return measure(bench, "core_tick, nothing queued", "baseline", () => {
    bench.core.tick();
    return true;
  });
}

export async function measureCoreOps(panels: number): Promise<CoreOpResult[]> {
  const bench = new BenchCore(panels);
  try {
    await bench.discover(panels);
    if (!bench.core.wsOpen(1)) throw new Error("the bench core refused a WebSocket connection");
    return [
      httpOp(bench, GET_STATE, 0, "answer 200 JSON"),
      httpOp(bench, PATCH_APPEARANCE, TICK_EVERY, `validate, 202; apply + broadcast in a tick every ${TICK_EVERY}`),
      frameOp(bench),
      idleTickOp(bench),
    ];
  } finally {
    bench.dispose();
  }
}
