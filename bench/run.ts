// `npm run bench`: sizes of the WebAssembly, the core's linear memory with 100 panels, the cost
// of a request inside the core, throughput over loopback against a bare Node server, the native
// POSIX host's throughput and memory, the web app's size and preview frame time and, when WAMR_ROOT
// names a WAMR tree, the device fit under 32-bit WAMR (bench/wamr.ts), and the device's RAM per variant
// (bench/ram.ts). Targets are reported, never enforced: the bench exits 0 either way.
import { measureCoreOps } from "./core-ops.js";
import { startBenchController } from "./controller.js";
import { exerciseMemory } from "./memory.js";
import { measureThroughput } from "./throughput.js";
import { reportCoreOps, reportMemory, reportSizes, reportThroughput, reportFigures, reportNative } from "./report.js";
import { benchNative } from "./native.js";
import { benchPanelEngine } from "./panel-engine.js";
import { benchSceneStore } from "./scene-store.js";
import { benchPlayback } from "./playback.js";
import { benchRunners } from "./runners.js";
import { benchSpawners } from "./spawners.js";
import { benchWamr } from "./wamr.js";
import { benchRam } from "./ram.js";
import { benchWeb } from "./web.js";
import { benchFirmware } from "./firmware.js";
import { benchHostileLoad, reportHostileLoad } from "./hostile-load.js";
import { streamLatency } from "./stream-latency.js";

const PANELS = 100;

async function main(): Promise<void> {
  console.log(`Tessera bench: ${PANELS} emulated panels, Node ${process.version}, ${process.platform}/${process.arch}`);
  // The in-core timings run first, while nothing else (server, virtual bus) is busy in the process.
  const coreOps = await measureCoreOps(PANELS);
  const engine = await benchPanelEngine();
  const scenes = await benchSceneStore();
  const playback = await benchPlayback();
  const runners = await benchRunners();
  const spawners = await benchSpawners();
  const ctrl = await startBenchController(PANELS);
  try {
    const memory = await exerciseMemory(ctrl);
    const throughput = await measureThroughput(ctrl);
    // Memory never shrinks: a sample after the load shows whether the load made it grow.
    memory.push({ step: "after the throughput runs (section 4)", result: "", bytes: ctrl.running.core.memoryBytes });
    reportSizes();
    reportMemory(PANELS, memory);
    reportCoreOps(coreOps);
    reportThroughput(PANELS, throughput);
    reportFigures("5. Panel animation engine (one panel, 18 animations)", engine);
    reportFigures("6. Scene store: a maximal scene (8 layers x 12 steps, 32 panels a layer)", scenes);
    reportFigures("7. Starting a scene on 100 panels", playback);
    reportFigures("8. Compiling and starting a runner on 100 panels (flat animation)", runners);
    reportFigures("9. Spawners on 100 panels at 30 drops a second (seeded)", spawners);
  } finally {
    await ctrl.close();
  }
  // The native host runs as its own process, after the in-process controller has stopped.
  reportNative(PANELS, await benchNative(PANELS));
  // The web app: its size, and the preview's frame time in Chromium with its own controller.
  reportFigures(
    "10. The web app: gzipped assets and the live preview with 100 panels (8 runner layers)",
    await benchWeb(),
  );
  reportFigures("11. Panel firmware: a 64 KiB image to 100 emulated panels", await benchFirmware());
  // Slow clients: each host's RSS and a fresh client's PING latency under a client that never reads.
  console.log(reportHostileLoad(await benchHostileLoad(60)));
  // A live stream (issue 35): DDP at 60 fps, datagram to bus frame, and the bus bytes a frame.
  console.log(await streamLatency());
  // The device fit: the core under 32-bit WAMR, classic and fast, with its memory and instruction counts.
  console.log((await benchWamr()).text);
  // The device's RAM per variant, against each chip's free heap and the targets (bench/ram.ts).
  console.log(benchRam());
}

await main();
