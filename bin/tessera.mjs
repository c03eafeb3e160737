#!/usr/bin/env node
// `tessera`: the project's command-line client (package.json "bin"). A small dispatcher: each
// subcommand lives in a file of its own (bin/<subcommand>.mjs) exporting `run(args)`, which returns
// the exit code; the everyday control commands are the rows of one table (bin/control.mjs).
const control = (name) => async () => (await import("./control.mjs")).command(name);
const COMMANDS = {
  discover: () => import("./discover.mjs"),
  status: control("status"),
  power: control("power"),
  brightness: control("brightness"),
  color: control("color"),
  palettes: control("palettes"),
  scenes: control("scenes"),
  play: control("play"),
  stop: control("stop"),
  speed: control("speed"),
  trigger: control("trigger"),
  push: () => import("./push.mjs"),
  watch: () => import("./watch.mjs"),
  backup: () => import("./backup.mjs"),
  restore: () => import("./restore.mjs"),
  "flash-panels": () => import("./flash-panels.mjs"),
  ota: () => import("./ota.mjs"),
};

const USAGE = `usage: tessera <command> [options] (tessera <command> --help for each)
commands: ${Object.keys(COMMANDS).join(", ")}
A controller is named with --controller URL|NAME or TESSERA_CONTROLLER; --json for scripts.`;

const [name, ...args] = process.argv.slice(2);
const load = COMMANDS[name];
if (!load) {
  if (name === "--help" || name === "-h" || name === "help") {
    console.log(USAGE);
    process.exit(0);
  }
  console.error(name ? `tessera: unknown command '${name}'\n${USAGE}` : USAGE);
  process.exit(2);
}
process.exitCode = await (await load()).run(args);
