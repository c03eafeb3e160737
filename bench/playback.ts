// Bench: starting scenes on 100 emulated panels. The controller runs in-process with the manual
// clock (host/src/controller.ts, manualClock), so the play is applied by one core tick whose time is
// measured, and the bus bytes the controller puts on the bus (VirtualBus.bytesFromController) are
// counted from the play until that tick is done. "unicast only" is what the same start would cost
// with one prepare (25 B) per targeted panel and one palette packet (70 B) per panel: the bytes
// broadcast saves. Target: any scene start under 8 KiB on the bus.
import { startBenchController, timeTicks } from "./controller.js";
import { maximalScene, runnerLayersScene } from "../tests/helpers/scenes.js";

const PANELS = 100;

/** Eight layers all starting at once on overlapping, uneven panel sets, with four palettes. */
function wideScene(): object {
  const sel = ["all", "leaves", "even", "fraction:0-0.3", "depth:2-6", { not: "subtree:5" }, "last:40", "odd"];
  const pal = ["Sunset", "Ocean", "Sunset", "Lava", null, null, "Ocean", null];
  return {
    schemaVersion: 8,
    palette: "Aurora",
    colors: { primary: "#FFFFFF", secondary: "#FF0000", tertiary: "#0000FF" },
    background: "#010203",
    layers: sel.map((panels, l) => ({
      group: l + 1,
      panels,
      ...(pal[l] ? { palette: pal[l] } : {}),
      sequence: [{ type: "PULSE", color: { palette: 30 * l }, duration: 1000, params: [60, 60] }],
    })),
  };
}

/** The worst scene start docs/playback.md bounds: a scene palette and colours (slot 0 and base
 * colours), 8 layers with 8 different 16-stop palettes (slots 1-8), each starting at once on 23
 * explicitly listed panels (the target count at which the cheapest way to prepare 100 panels costs
 * most: 23 unicasts, 575 B, vs broadcast + 77 clears, 564 B), the windows together covering all 100. */
function worstScene(): object {
  return {
    schemaVersion: 8,
    palette: "Rainbow",
    colors: { primary: "#FFFFFF", secondary: "#FF0000", tertiary: "#0000FF" },
    background: "#010203",
    layers: Array.from({ length: 8 }, (_, l) => ({
      group: l + 1,
      panels: Array.from({ length: 23 }, (_, i) => ((l * 11 + i * 4) % PANELS) + 1),
      palette: `Worst ${l + 1}`,
      sequence: [{ type: "PULSE", color: { palette: 30 * l }, duration: 1000, params: [60, 60] }],
    })),
  };
}

/** The worst runner start docs/playback.md bounds: a scene palette and colours, 8 layers with 8
 * different 16-stop palettes, each a geometric RIPPLE from the leaves with count 8 on all 100 panels
 * (start delay and duration differ per panel: 4-byte table entries, 8 sweeps). */
function worstRunnerScene(): object {
  return {
    schemaVersion: 8,
    palette: "Rainbow",
    colors: { primary: "#FFFFFF", secondary: "#FF0000", tertiary: "#0000FF" },
    background: "#010203",
    layers: Array.from({ length: 8 }, (_, l) => ({
      group: l + 1,
      palette: `Worst ${l + 1}`,
      sequence: [
        {
          runner: "RIPPLE",
          directionality: "geometric",
          source: "leaves",
          count: 8,
          color: { palette: 30 * l },
          duration: 3000,
        },
      ],
    })),
  };
}

/** The 16-stop palettes the worst scene names. */
function worstPalettes(): object[] {
  return Array.from({ length: 8 }, (_, l) => ({
    schemaVersion: 1,
    name: `Worst ${l + 1}`,
    stops: Array.from({ length: 16 }, (_, i) => [
      i * 17,
      "#" +
        [l * 30, i * 16, 255 - i * 16]
          .map((v) => v.toString(16).padStart(2, "0"))
          .join("")
          .toUpperCase(),
    ]),
  }));
}

export async function benchPlayback(): Promise<Record<string, string | number>> {
  const bench = await startBenchController(PANELS, { manualClock: true });
  const { running: ctrl, post } = bench;
  try {
    // time each core tick while the clock request applies the queued play
    let longest = 0;
    timeTicks(ctrl, (ms) => (longest = Math.max(longest, ms)));
    const start = async (scene: object) => {
      await post("/api/scenes/stop", {});
      await post("/__test__/clock", { advance: 10 });
      // the host ticks the core right after the request (that tick applies the play); the one-shot
      // request itself puts nothing on the bus
      const before = ctrl.bus.bytesFromController;
      longest = 0;
      await post("/api/scenes/play/one-shot", scene);
      await post("/__test__/clock", { advance: 0 });
      return { bytes: ctrl.bus.bytesFromController - before, ms: longest };
    };
    for (const p of worstPalettes()) await post("/api/palettes", p);
    const figures: Record<string, string | number> = {};
    const runs: Array<[string, object, number]> = [
      // unicast-only estimate: prepares for the layers starting at 0, palette per panel
      ["maximal scene (8x12, 32 panels a layer; 1 layer starts at 0)", maximalScene(), 25 * 32 + 70 * PANELS],
      ["8 layers starting at once, 4 palettes", wideScene(), 0],
      ["worst case (8 layers x 23 listed panels, 8 + 1 palettes of 16 stops, colours)", worstScene(), 0],
      // unicast-only: one prepare per panel and pulse, as before pulse tables
      ["8 runner layers, one pulse a panel each", runnerLayersScene(), 23 + 8 * 100 * 25 + 8 * 7],
      ["worst runner case (8 x geometric RIPPLE count 8 on 100, 8 + 1 palettes, colours)", worstRunnerScene(), 0],
    ];
    for (const [name, scene] of runs) {
      // warm-up, then the measured start
      await start(scene);
      const r = await start(scene);
      figures[`${name}: bus bytes to start`] = r.bytes;
      figures[`${name}: core time of the starting tick (ms)`] = r.ms.toFixed(3);
      figures[`${name}: under 8 KiB`] = r.bytes < 8192 ? "yes" : "NO";
    }
    figures["core linear memory after the starts (KiB)"] = ctrl.core.memoryBytes / 1024;
    figures["maximal scene: unicast-only estimate (bytes)"] = runs[0][2];
    figures["maximal scene: bytes saved by broadcast"] =
      runs[0][2] - Number(figures[`${runs[0][0]}: bus bytes to start`]);
    figures["8 runner layers: with one unicast prepare per panel and pulse (bytes)"] = runs[3][2];
    return figures;
  } finally {
    await bench.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchPlayback());
