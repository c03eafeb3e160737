// `tessera watch`: the panels live in the terminal, in true colour. Like the web app's preview, the
// colours are computed by the panel firmware itself (build/panel.wasm, one instance per panel) fed
// the controller's MIRROR_BATCH stream; the decoding is the web app's (web/src/engine.ts, link.ts,
// bundled as build/preview.mjs by the build).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { main, controller, request, CliError, EXIT, COLOR, swatch } from "./lib/cli.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const USAGE =
  "tessera watch [--fps N] [--frames N]\n  Shows every panel's colour live (a swatch per panel, in true colour) until Ctrl-C, or for N frames.";

const hex = (rgb) => "#" + rgb.toString(16).padStart(6, "0").toUpperCase();
/** A panel: its address on its colour, or (colour off) its address and colour as text. */
const panel = (rgb, address) => swatch(rgb, String(address).padStart(3) + " ") + (COLOR ? "" : hex(rgb));

/** One frame: the panels as swatches, wrapped to the terminal's width, and the state line. */
function draw(addresses, colours, state) {
  const width = Math.max(8, process.stdout.columns || 80); // 0 in a pty without a size
  const perRow = Math.max(1, Math.floor(width / (COLOR ? 5 : 12)));
  const rows = [];
  for (let i = 0; i < addresses.length; i += perRow)
    rows.push(
      addresses
        .slice(i, i + perRow)
        .map((a, j) => panel(colours[i + j], a))
        .join(" "),
    );
  const status = state
    ? `${state.isOn ? "on" : "off"}, ${state.playing ? `playing ${state.lastPlayedSceneId || "one-shot"} at ${state.speed}x` : "not playing"}`
    : "";
  return [...rows, status];
}

export function run(args) {
  const spec = { fps: { type: "string" }, frames: { type: "string" } };
  return main(args, spec, [0, 0], USAGE, async (opts) => {
    const fps = Number(opts.fps ?? 15);
    const frames = opts.frames === undefined ? Infinity : Number(opts.frames);
    if (!(fps > 0 && fps <= 60) || !(frames > 0))
      throw new CliError("--fps takes 1-60, --frames a positive count", EXIT.USAGE);
    let preview;
    try {
      preview = await import(path.join(ROOT, "build/preview.mjs"));
    } catch {
      throw new CliError("build/preview.mjs is missing: run npm run build", EXIT.USAGE);
    }
    const url = await controller(opts);
    const addresses = [...new Set((await request(url, "GET", "/api/panels/edges")).map((e) => e.panel))];
    const module = await WebAssembly.compile(fs.readFileSync(path.join(ROOT, "build/panel.wasm")));
    const engine = new preview.PreviewEngine(module);
    engine.setPanels(addresses);
    const colours = new Uint32Array(addresses.length);
    let state = null;
    const ws = new WebSocket(url.replace(/^http/, "ws") + "/ws");
    ws.binaryType = "nodebuffer";
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", (e) => reject(new CliError(`cannot reach ${url}/ws: ${e.message}`, EXIT.UNREACHABLE)));
    });
    ws.send(preview.frame(preview.WS.SET_MIRROR, [1]));
    ws.on("message", (data) => {
      const b = new Uint8Array(data);
      const payload = b.subarray(14);
      if (b[0] === preview.WS.MIRROR_BATCH) engine.batch(payload, performance.now());
      else if (b[0] === preview.WS.APP_STATE) state = preview.parseAppState(payload);
    });
    let lines = 0;
    let shown = 0;
    let last = [];
    await new Promise((resolve) => {
      const stop = () => {
        clearInterval(timer);
        resolve();
      };
      process.once("SIGINT", stop);
      ws.once("close", stop);
      const timer = setInterval(() => {
        engine.render(performance.now(), colours);
        last = draw(addresses, colours, state);
        if (!opts.json) {
          // on a terminal each frame is drawn over the last; elsewhere (a pipe, a file) it follows it
          if (!process.stdout.isTTY) process.stdout.write(last.join("\n") + "\n");
          else process.stdout.write((lines ? `\x1b[${lines}F` : "") + last.map((l) => l + "\x1b[K").join("\n") + "\n");
          lines = last.length;
        }
        if (++shown >= frames) stop();
      }, 1000 / fps);
    });
    ws.close();
    const panels = addresses.map((a, i) => ({
      address: a,
      color: hex(colours[i]),
    }));
    return { json: { frames: shown, panels, state } };
  });
}
