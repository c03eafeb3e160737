// The WAMR bench's memory figures as data (bench/wamr-figures.json), for `npm run bench:ram`
// (bench/ram.ts), which budgets the device's RAM from them: each `npm run bench:wamr` run rewrites the
// file with what it measured, per interpreter (the variants hold the same core and measure the same;
// the large one is kept). Committed, so the RAM table (docs/porting.md) can be checked without WAMR.
import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WAMR_FIGURES = path.join(ROOT, "bench", "wamr-figures.json");

/** What one interpreter's build held for the core (bytes), from the counting allocator. */
export interface CoreMemory {
  /** the classic interpreter's RAM image (0 under fast: it loads from flash) */
  image: number;
  module: number;
  instance: number;
  /** the exec env: its fields and the wasm stack */
  execEnv: number;
  stackSize: number;
  stackUsed: number;
  /** the most WAMR held at once over the workload (image, module, instance, exec env and the rest) */
  peak: number;
  /** linear memory (WAMR's os_mmap on the bench; the port's block on the device) */
  linear: number;
  /** blocks WAMR holds at most (each costs ESP-IDF's heap a header of up to 8 B) */
  blocks: number;
}

export interface WamrFigures {
  /** how they were measured */
  source: string;
  /** the image measured: its size and the first 8 hex digits of its MD5 */
  core: { bytes: number; md5: string };
  /** .data + .bss of WAMR's own library (the bench's 32-bit build), bytes */
  wamrStatic: number | null;
  interpreters: Record<string, CoreMemory>;
}

const figures: Record<string, CoreMemory> = {};

/** The core's blocks as bench/wamr.ts works them out of a run (its CoreHeap), the fields kept here. */
interface MeasuredHeap {
  imageInRam: number;
  module: number;
  instance: number;
  execEnv: number;
  stackSize: number;
  stackUsed: number;
  wamrPeak: number;
  linearMemory: number;
  blocks: number;
}

/** One run's figures (bench/wamr.ts calls it per build and variant; the large variant's are kept). */
export function recordWamrFigures(flavour: string, variant: string, heap: MeasuredHeap) {
  if (flavour !== "classic" && flavour !== "fast") return;
  if (variant !== "large" && figures[flavour]) return;
  figures[flavour] = {
    image: heap.imageInRam,
    module: heap.module,
    instance: heap.instance,
    execEnv: heap.execEnv,
    stackSize: heap.stackSize,
    stackUsed: heap.stackUsed,
    peak: heap.wamrPeak,
    linear: heap.linearMemory,
    blocks: heap.blocks,
  };
}

/** .data + .bss of a static library (binutils' size, Berkeley format), or null. */
function staticData(lib: string): number | null {
  if (!fs.existsSync(lib)) return null;
  const r = spawnSync("size", ["-t", lib], { encoding: "utf8" });
  const total = r.stdout?.split("\n").find((l) => /\(TOTALS\)/.test(l));
  if (r.status !== 0 || !total) return null;
  const [, data, bss] = total.trim().split(/\s+/).map(Number);
  return data + bss;
}

/** Writes bench/wamr-figures.json from what was recorded: only when both interpreters ran (a focused run,
 * --only=..., leaves the file as it was). */
export function writeWamrFigures(controller: string, wamrLib: string): void {
  if (!figures.classic || !figures.fast) return;
  const bytes = fs.readFileSync(controller);
  const out: WamrFigures = {
    source:
      "npm run bench:wamr (bench/wamr.ts): WAMR 32-bit (gcc -m32), counting allocator, the large variant's workload",
    core: { bytes: bytes.length, md5: crypto.createHash("md5").update(bytes).digest("hex").slice(0, 8) },
    wamrStatic: staticData(wamrLib),
    interpreters: figures,
  };
  fs.writeFileSync(WAMR_FIGURES, JSON.stringify(out, null, 2) + "\n");
}
