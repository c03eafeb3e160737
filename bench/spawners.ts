// Bench: the particle spawners on 100 emulated panels at 30 drops a second. The controller runs
// in-process with the manual clock and a fixed seed (host/src/controller.ts), so the same drops
// fall on every run; each spawner plays as a one-shot scene for 10 s of controller time after a
// 1 s warm-up. Figures: the bus bytes the controller puts on the bus per second
// (VirtualBus.bytesFromController) and the core time of a tick: the mean over the ticks that
// launched drops, and the longest tick (the manual clock ticks twice every 5 ms).
import { startBenchController, timeTicks } from "./controller.js";

const PANELS = 100;
const WAVES = 30;
const SECONDS = 10;

const SPAWNERS: Array<[string, object]> = [
  ["RAIN (topology, width 3)", { runner: "RAIN", width: 3 }],
  ["RAIN (geometric, angle 270, width 3)", { runner: "RAIN", width: 3, directionality: "geometric", angle: 270 }],
  ["SPARKLE (width 20)", { runner: "SPARKLE", width: 20 }],
  ["MATRIX (geometric, angle 90, width 2)", { runner: "MATRIX", width: 2, angle: 90 }],
  ["MATRIX (topology, width 2)", { runner: "MATRIX", width: 2, directionality: "topology" }],
];

export async function benchSpawners(): Promise<Record<string, string | number>> {
  const bench = await startBenchController(PANELS, { manualClock: true, seed: 1 });
  const { running: ctrl, post } = bench;
  try {
    let ticks = 0;
    let total = 0;
    let longest = 0;
    timeTicks(ctrl, (ms, busBytes) => {
      if (busBytes > 0) {
        ticks++;
        total += ms;
      }
      longest = Math.max(longest, ms);
    });
    const figures: Record<string, string | number> = {};
    for (const [name, step] of SPAWNERS) {
      await post("/api/scenes/stop", {});
      await post("/api/scenes/play/one-shot", {
        schemaVersion: 7,
        layers: [{ group: 1, sequence: [{ ...step, waves: WAVES, speed: 1000, color: "#FFFFFF", duration: 0 }] }],
      });
      await post("/__test__/clock", { advance: 1000 }); // warm-up: drops in flight everywhere
      const before = ctrl.bus.bytesFromController;
      ticks = 0;
      total = 0;
      longest = 0;
      for (let s = 0; s < SECONDS * 4; s++) await post("/__test__/clock", { advance: 250 });
      const bytes = (ctrl.bus.bytesFromController - before) / SECONDS;
      figures[`${name}: bus bytes/s at ${WAVES} drops/s`] = Math.round(bytes);
      figures[`${name}: bytes a drop`] = Math.round(bytes / WAVES);
      figures[`${name}: core time of a launching tick, mean / longest tick (ms)`] =
        `${(total / ticks).toFixed(3)} / ${longest.toFixed(3)}`;
    }
    return figures;
  } finally {
    await bench.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchSpawners());
