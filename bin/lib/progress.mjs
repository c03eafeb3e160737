// A progress bar on stderr, drawn only on a terminal (scripts and tests get the final line alone).
const quiet = () => !process.stderr.isTTY;

export function bar(label, fraction, note = "") {
  if (quiet()) return;
  const width = 30;
  const f = Math.max(0, Math.min(1, fraction));
  const filled = Math.round(f * width);
  const line = `${label.padEnd(12)} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(f * 100)).padStart(3)}% ${note}`;
  process.stderr.write(`\r${line.padEnd(78)}`);
}

/** Ends the bar's line. */
export function barDone() {
  if (!quiet()) process.stderr.write("\n");
}
