// What every `tessera` client command shares: its options (util.parseArgs, plus --controller, --json
// and --help), the controller's address (a URL, or an mDNS name browsed as `_tessera._tcp`), JSON
// requests, and the exit codes that say what failed.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { browse } from "./mdns.mjs";

/** Exit codes: 0 done; the others say what failed. */
export const EXIT = { OK: 0, REFUSED: 1, USAGE: 2, UNREACHABLE: 3, INVALID: 4 };
export const EXIT_HELP = `exit codes: 0 done, 1 the controller refused (its error is shown), 2 usage, 3 controller unreachable or not found, 4 invalid file`;

export class CliError extends Error {
  constructor(message, code, detail) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

const COMMON = {
  controller: { type: "string", short: "c" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};
export const COMMON_HELP = `  -c, --controller URL|NAME  the controller (default: $TESSERA_CONTROLLER): http://host[:port], or an mDNS name such as tessera-a1b2c3
      --json                 machine-readable output
  -h, --help                 this help`;

/** Parses `args` for a command: `spec` its own options, `positionals` the [least, most] arguments. */
export function parse(args, spec = {}, positionals = [0, 0]) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...COMMON, ...spec }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(e.message, EXIT.USAGE);
  }
  const n = parsed.positionals.length;
  if (!parsed.values.help && (n < positionals[0] || n > positionals[1]))
    throw new CliError(
      `expected ${positionals[0]}${positionals[1] > positionals[0] ? "-" + positionals[1] : ""} arguments, got ${n}`,
      EXIT.USAGE,
    );
  return { ...parsed.values, args: parsed.positionals };
}

/** The controller's base URL: a URL as given (the scheme may be left out: 192.168.1.5:8080,
 * lights.home.arpa), or an mDNS name (tessera-a1b2c3, tessera-a1b2c3.local) looked up by browsing
 * `_tessera._tcp`, which works without a system mDNS resolver. */
export async function controller(opts) {
  const given = opts.controller ?? process.env.TESSERA_CONTROLLER;
  if (!given) throw new CliError("no controller: give --controller URL|NAME or set TESSERA_CONTROLLER", EXIT.USAGE);
  if (/^https?:\/\//.test(given)) return given.replace(/\/$/, "");
  if (!/^[a-z0-9-]+(\.local\.?)?$/i.test(given)) return `http://${given.replace(/\/$/, "")}`;
  const name = given.replace(/\.local\.?$/, "").toLowerCase();
  const found = (await browse(3000, (c) => c.name.toLowerCase() === name)).find((c) => c.name.toLowerCase() === name);
  if (!found) throw new CliError(`no controller named ${given} answered on mDNS (_tessera._tcp)`, EXIT.UNREACHABLE);
  return found.url;
}

/** A JSON file's document; one that cannot be read or parsed exits 4 (invalid file). */
export function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new CliError(`${file}: ${e.message}`, EXIT.INVALID);
  }
}

/** A JSON request; a refusal (4xx, 5xx) throws with the controller's error. */
export async function request(base, method, path, body) {
  let res;
  try {
    res = await fetch(base + path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? {} : { "content-type": "application/json" },
    });
  } catch (e) {
    throw new CliError(`cannot reach ${base}: ${e.cause?.message ?? e.message}`, EXIT.UNREACHABLE);
  }
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: shown as text below
  }
  if (res.status >= 400)
    throw new CliError(
      `${method} ${path}: ${res.status} ${json?.error ?? text}${json?.message ? ": " + json.message : ""}`,
      EXIT.REFUSED,
      {
        status: res.status,
        body: json,
      },
    );
  return json;
}

/** Runs a command body, printing its result (human or --json) and mapping failures to exit codes. */
export async function main(args, spec, positionals, help, body) {
  let opts;
  try {
    opts = parse(args, spec, positionals);
    if (opts.help) {
      console.log(`${help}\n\noptions:\n${COMMON_HELP}\n${EXIT_HELP}`);
      return EXIT.OK;
    }
    const result = await body(opts);
    if (opts.json) console.log(JSON.stringify(result.json ?? result.data ?? {}, null, 2));
    else if (result.text) console.log(result.text);
    return result.code ?? EXIT.OK;
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    if (opts?.json) console.log(JSON.stringify({ error: e.message, ...(e.detail ? { detail: e.detail } : {}) }));
    console.error(`tessera: ${e.message}`);
    if (e.code === EXIT.USAGE) console.error(help.split("\n")[0]);
    return e.code;
  }
}

/** Whether stdout takes colour escapes: a terminal, unless NO_COLOR is set (no-color.org) or TERM is
 * dumb; FORCE_COLOR (set, not 0) turns them on anywhere. Pipes and files get plain text. */
export const COLOR = process.env.FORCE_COLOR
  ? process.env.FORCE_COLOR !== "0"
  : process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== "dumb";

/** `text` on a true-colour background of `rgb` (0xRRGGBB), in black or white to stand out; `text`
 * alone where colour is off (COLOR). */
export function swatch(rgb, text = "  ") {
  if (!COLOR) return text;
  const ink = (rgb & 0x808080) === 0x808080 ? "0;0;0" : "255;255;255";
  return `\x1b[48;2;${rgb >>> 16};${(rgb >>> 8) & 255};${rgb & 255}m\x1b[38;2;${ink}m${text}\x1b[0m`;
}

/** A "#RRGGBB" colour: its swatch then its text where colour is on, its text alone where not. */
export function colour(hex) {
  return (COLOR ? swatch(parseInt(hex.slice(1), 16)) + " " : "") + hex.toUpperCase();
}
