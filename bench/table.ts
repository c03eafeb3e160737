// Plain-text tables and number formatting for the report.

/** Renders rows under a header; `align` holds one letter per column, "l" or "r". */
export function table(headers: string[], rows: string[][], align: string): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const cell = (text: string, c: number) => (align[c] === "r" ? text.padStart(widths[c]) : text.padEnd(widths[c]));
  const line = (cells: string[]) => cells.map(cell).join("  ").trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function int(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

export function fixed(n: number, digits = 1): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function kib(bytes: number): string {
  return `${fixed(bytes / 1024)} KiB`;
}

export function verdict(ok: boolean): string {
  return ok ? "ok" : "OVER";
}
