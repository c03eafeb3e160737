// Bench: compiling and starting each compiled runner (WAVE, RIPPLE, CHASE, WHEEL, BOUNCE) on 100
// emulated panels (the generated topology, whose layout can be embedded), as a flat animation
// (POST /api/animations/play). The controller runs in-process with the manual clock, so the start is
// applied by one core tick: its time is the compile-and-send time, and the bus bytes are counted
// from the request until that tick is done. Target: any runner under 2 ms in Node.
import { startBenchController, timeTicks } from "./controller.js";

const PANELS = 100;
const RUNS = 9;

// [name, step, bytes with one unicast prepare per panel and pulse (before pulse tables; one pulse a
// panel whatever the count since issue 18)]
const CASES: Array<[string, object, number]> = [
  ["WAVE topology", { runner: "WAVE", duration: 2000 }, 2514],
  ["WAVE geometric, angle 40", { runner: "WAVE", directionality: "geometric", angle: 40, duration: 2000 }, 2514],
  [
    "WAVE repeat, repeatCount 3, count 2",
    { runner: "WAVE", repeat: true, repeatCount: 3, count: 2, duration: 2000 },
    2514,
  ],
  ["RIPPLE topology, leaves", { runner: "RIPPLE", source: "leaves", duration: 2000 }, 2514],
  [
    "RIPPLE geometric, panel:50",
    { runner: "RIPPLE", directionality: "geometric", source: "panel:50", duration: 2000 },
    2514,
  ],
  [
    "RIPPLE geometric, leaves",
    { runner: "RIPPLE", directionality: "geometric", source: "leaves", duration: 2000 },
    2514,
  ],
  ["CHASE topology", { runner: "CHASE", duration: 2000 }, 2514],
  ["WHEEL, 3 lines", { runner: "WHEEL", lines: 3, thickness: 10, source: "all", duration: 2000 }, 2514],
  ["BOUNCE geometric", { runner: "BOUNCE", directionality: "geometric", angle: 90, duration: 2000 }, 2514],
  ["WAVE count 8", { runner: "WAVE", count: 8, duration: 2000 }, 2514],
  ["WAVE source all (one broadcast)", { runner: "WAVE", source: "all", duration: 2000 }, 39],
];

export async function benchRunners(): Promise<Record<string, string | number>> {
  const bench = await startBenchController(PANELS, { manualClock: true });
  const { running: ctrl, post } = bench;
  try {
    let longest = 0;
    timeTicks(ctrl, (ms) => (longest = Math.max(longest, ms)));
    const figures: Record<string, string | number> = {};
    let worst = 0;
    for (const [name, step, unicast] of CASES) {
      const times: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run++) {
        await post("/__test__/clock", { advance: 10 });
        const before = ctrl.bus.bytesFromController;
        longest = 0;
        await post("/api/animations/play", { group: 7, color: "#FF8000", ...step });
        await post("/__test__/clock", { advance: 0 });
        times.push(longest);
        bytes = ctrl.bus.bytesFromController - before;
      }
      times.sort((a, b) => a - b);
      const median = times[RUNS >> 1];
      worst = Math.max(worst, median);
      figures[`${name}: core time (ms, median of ${RUNS})`] = median.toFixed(3);
      figures[`${name}: bus bytes`] = bytes;
      figures[`${name}: bus bytes with unicast prepares only`] = unicast;
    }
    figures["slowest runner under 2 ms"] = worst < 2 ? "yes" : "NO";
    return figures;
  } finally {
    await bench.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchRunners());
