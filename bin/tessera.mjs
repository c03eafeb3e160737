// `tessera`: the project's command-line client (package.json "bin"). A small dispatcher: each
// subcommand lives in a file of its own (bin/<subcommand>.mjs) exporting `run(args)`, which returns
// the exit code.
const COMMANDS = {
  "flash-panels": () => import("./flash-panels.mjs"),
  ota: () => import("./ota.mjs"),
};

const [name, ...args] = process.argv.slice(2);
const load = COMMANDS[name];
if (!load) {
  const list = Object.keys(COMMANDS).join(", ");
  console.error(
    name ? `tessera: unknown command '${name}' (commands: ${list})` : `usage: tessera <command> ...\ncommands: ${list}`,
  );
  process.exit(2);
}
process.exitCode = await (await load()).run(args);
