// The black-box test files: those that start a host as a child process (tests/helpers/host.ts
// startHost) and talk to it over HTTP and WebSocket only, found by content so new files are included.
// The native host runs them (scripts/native-test.mjs), and so does the desktop host against the
// poison image (scripts/poison-test.mjs). A file marked `native: desktop host only` would need what the
// POSIX port lacks and is left out of the native run (none is marked today: the port has MQTT and
// mDNS too).
import fs from "node:fs";
import path from "node:path";

const DESKTOP_ONLY = "native: desktop host only";

export function blackBoxFiles(root) {
  const read = (f) => fs.readFileSync(path.join(root, "tests", f), "utf8");
  const hostFiles = fs
    .readdirSync(path.join(root, "tests"))
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => read(f).includes("startHost("))
    .sort();
  return {
    BLACK_BOX: hostFiles.filter((f) => !read(f).includes(DESKTOP_ONLY)).map((f) => `tests/${f}`),
    DESKTOP_ONLY_FILES: hostFiles.filter((f) => read(f).includes(DESKTOP_ONLY)).map((f) => `tests/${f}`),
  };
}
