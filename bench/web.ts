// Bench of the web app (issue 16): the gzipped size of its assets (build/web/assets.json; budget
// 48 KB), and the live preview's frame time with 100 panels playing eight runner layers at once
// (tests/helpers/scenes.ts runnerLayersScene, one pulse a panel a layer):
//   - in Chromium (Debian's, through playwright-core) on the real page against the in-process
//     controller: the work of each animation frame (100 panel.wasm renders and the SVG updates),
//     as the page records it (window.tesseraPreview), and the frame rate it keeps;
//   - the preview engine alone in Node.js (web/src/engine.ts fed the same mirror stream over /ws).
// Reported, never enforced: the bench exits 0 either way.
import fs from "node:fs";
import path from "node:path";
import WebSocket from "ws";
import { ROOT } from "../host/src/controller.js";
import { PreviewEngine } from "../web/src/engine.js";
import { frame, WS } from "../web/src/link.js";
import { runnerLayersScene } from "../tests/helpers/scenes.js";
import { startBenchController, type BenchController } from "./controller.js";

const PANELS = 100;
const BUDGET = 48 * 1024;
const FRAME_60 = 1000 / 60;

const CHROMIUM = [process.env.TESSERA_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p) => p && fs.existsSync(p),
);

function stats(xs: number[]): { mean: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return {
    mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length),
    p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? 0,
    max: s[s.length - 1] ?? 0,
  };
}

const ms = (v: number) => `${v.toFixed(3)} ms`;

function play(ctrl: BenchController): Promise<string> {
  return ctrl.post("/api/scenes/play/one-shot", { ...runnerLayersScene(), name: "bench", loop: true });
}

/** The engine alone: 100 panel instances fed 2 s of the real mirror stream, then rendered. */
async function engineInNode(ctrl: BenchController): Promise<Record<string, string | number>> {
  const module = new WebAssembly.Module(fs.readFileSync(path.join(ROOT, "build/panel.wasm")));
  const engine = new PreviewEngine(module);
  engine.setPanels(Array.from({ length: PANELS }, (_, i) => i + 1));
  const ws = new WebSocket(ctrl.wsUrl);
  let batches = 0;
  let records = 0;
  let feed = 0;
  ws.on("message", (data: Buffer) => {
    if (data[0] !== WS.MIRROR_BATCH) return;
    const payload = new Uint8Array(data.buffer, data.byteOffset + 14, data.length - 14);
    const t = performance.now();
    engine.batch(payload, t);
    feed += performance.now() - t;
    batches++;
    records += payload[4] | (payload[5] << 8);
  });
  await new Promise((resolve) => ws.once("open", resolve));
  ws.send(frame(WS.SET_MIRROR, [1]));
  await play(ctrl);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  ws.close();
  const out = new Uint32Array(PANELS);
  const times: number[] = [];
  const t0 = performance.now();
  for (let f = 0; f < 600; f++) {
    const t = performance.now();
    engine.render(t0 + f * FRAME_60, out);
    times.push(performance.now() - t);
  }
  const s = stats(times);
  return {
    "Node.js: render of 100 panels, mean": ms(s.mean),
    "Node.js: render of 100 panels, p95": ms(s.p95),
    "Node.js: mirror batches fed (2 s)": batches,
    "Node.js: records fed": records,
    "Node.js: feeding time per batch": ms(feed / Math.max(1, batches)),
  };
}

/** The real page in Chromium: frame work and frame rate while the runners play. */
async function pageInChromium(ctrl: BenchController): Promise<Record<string, string | number>> {
  if (!CHROMIUM) return { "Chromium: skipped": "chromium not installed (apt-get install chromium)" };
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(ctrl.url + "/");
    await page.getByText("Live", { exact: true }).waitFor();
    const before = (await page.evaluate("window.tesseraPreview.frames().length")) as number;
    await play(ctrl);
    await page.waitForTimeout(4000);
    // As a string: tsx would wrap the functions of a callback in a helper the page does not have.
    const { work, intervals } = (await page.evaluate(`(async () => {
      const work = window.tesseraPreview.frames().slice(${before});
      const gaps = [];
      let last = performance.now();
      await new Promise((done) => {
        const step = (t) => {
          gaps.push(t - last);
          last = t;
          if (gaps.length < 180) requestAnimationFrame(step);
          else done();
        };
        requestAnimationFrame(step);
      });
      return { work, intervals: gaps.slice(1) };
    })()`)) as { work: number[]; intervals: number[] };
    const s = stats(work);
    const fps = 1000 / stats(intervals).mean;
    return {
      "Chromium: frame work (100 panels + SVG), mean": ms(s.mean),
      "Chromium: frame work, p95": ms(s.p95),
      "Chromium: frame work, max": ms(s.max),
      "Chromium: frames measured": work.length,
      "Chromium: frame rate kept": `${fps.toFixed(1)} fps`,
      "target: a frame's work well within 16.7 ms (60 fps)": s.p95 < FRAME_60 ? "met" : "NOT met",
    };
  } finally {
    await browser.close();
  }
}

export async function benchWeb(): Promise<Record<string, string | number>> {
  const assets = JSON.parse(fs.readFileSync(path.join(ROOT, "build/web/assets.json"), "utf8")) as {
    file: string;
    size: number;
    gzipSize: number;
  }[];
  const total = assets.reduce((n, a) => n + a.gzipSize, 0);
  const sizes: Record<string, string | number> = {};
  for (const a of assets) sizes[`${a.file.replace(/\.gz$/, "")} (plain / gzipped B)`] = `${a.size} / ${a.gzipSize}`;
  sizes["all assets, gzipped B"] = total;
  sizes["budget 48 KB (49,152 B)"] = total <= BUDGET ? `met (${((100 * total) / BUDGET).toFixed(0)}%)` : "NOT met";
  const ctrl = await startBenchController(PANELS);
  try {
    const node = await engineInNode(ctrl);
    await ctrl.post("/api/scenes/stop", {});
    const browser = await pageInChromium(ctrl);
    return { ...sizes, ...browser, ...node };
  } finally {
    await ctrl.close();
  }
}

// Run on its own: tsx bench/web.ts
if (process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join("bench", "web.ts"))) {
  benchWeb().then((r) => console.log(r));
}
