// `tessera ota --host H [--port P] FILE` (bin/tessera.mjs, bin/ota.mjs): update a controller over
// the network with espota's protocol.
import { parseArgs } from "node:util";
import fs from "node:fs";
import { upload, UploadError } from "./ota-client.js";

const HELP = `Usage: tessera ota --host H [--port P] FILE

      Self-update a controller over the network with the protocol of Arduino's espota.py, no password.
      H: its address or mDNS name (tessera-<chipid>.local). P: its self-update port (default 3232, the
      large variant; 8266 on the small one). FILE: build/controller.wasm for the desktop and POSIX hosts,
      the app image (build-idf/tessera.bin) for a device.
      Exit codes: 0 the controller took the image, 1 it refused it (its ERR is shown), 2 usage or an
      unreadable FILE, 3 the controller cannot be reached (no answer on that port).
`;

function fail(message: string, code = 2): never {
  console.error(`tessera: ${message}`);
  process.exit(code);
}

/** A progress bar on stderr when it is a terminal, else a line per tenth. */
function progress(): (sent: number, total: number) => void {
  let shown = -1;
  return (sent, total) => {
    const pct = Math.floor((sent * 100) / total);
    if (process.stderr.isTTY) {
      const filled = Math.round(pct / 2.5);
      process.stderr.write(`\rUploading: [${"=".repeat(filled)}${" ".repeat(40 - filled)}] ${pct}%`);
      if (sent === total) process.stderr.write("\n");
    } else if (Math.floor(pct / 10) !== shown) {
      shown = Math.floor(pct / 10);
      process.stderr.write(`Uploading: ${pct}%\n`);
    }
  };
}

/** Runs `tessera ota` with its arguments; the exit code (0 when the controller took the image). */
export async function ota(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { host: { type: "string" }, port: { type: "string", default: "3232" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    fail(`${(e as Error).message}\n\n${HELP}`);
  }
  const { values, positionals } = parsed;
  if (!values.host) fail(`ota: --host is required\n\n${HELP}`);
  if (positionals.length !== 1) fail(`ota: give one image file\n\n${HELP}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail("ota: --port must be 1-65535");
  let image: Buffer;
  try {
    image = fs.readFileSync(positionals[0]);
  } catch (e) {
    fail(`ota: ${(e as Error).message}`);
  }
  console.error(`Updating ${values.host} port ${port} with ${positionals[0]} (${image.length} bytes)`);
  try {
    await upload({ host: values.host, port, image, onProgress: progress() });
  } catch (e) {
    // the exit codes of every `tessera` command (bin/lib/cli.mjs EXIT): 3 unreachable, 1 refused
    if (e instanceof UploadError) fail(`ota: ${e.message}`, e.unreachable ? 3 : 1);
    throw e;
  }
  console.error("Done: the controller took the image.");
  return 0;
}
