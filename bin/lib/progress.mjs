// A progress bar on stderr, drawn only on a terminal (scripts and tests get the final line alone),
// and an upload that shows it.
import http from "node:http";

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

/** Sends `bytes` as the body of `method url` in pieces, the bar following them; resolves with the
 * status, the answer's text and its JSON (null when it is not JSON). */
export function sendWithProgress(url, method, bytes, type, label = "uploading", piece = 4096) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { "Content-Type": type, "Content-Length": bytes.length } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          barDone();
          let body = null;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON (or empty, as a 204 is): the caller reports it
          }
          resolve({ status: res.statusCode, body, text });
        });
      },
    );
    req.on("error", reject);
    let at = 0;
    const next = () => {
      while (at < bytes.length) {
        const chunk = bytes.subarray(at, at + piece);
        at += chunk.length;
        bar(label, at / bytes.length, `${at} / ${bytes.length} B`);
        if (!req.write(chunk)) return req.once("drain", next);
      }
      req.end();
    };
    next();
  });
}
