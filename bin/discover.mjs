// `tessera discover`: lists the controllers that answer an mDNS browse for `_tessera._tcp`.
import { main, CliError, EXIT } from "./lib/cli.mjs";
import { browse } from "./lib/mdns.mjs";

const USAGE =
  "tessera discover [--timeout S]\n  Lists the controllers on the local network (mDNS _tessera._tcp), browsing for S seconds (3).";

export function run(args) {
  return main(args, { timeout: { type: "string", short: "t" } }, [0, 0], USAGE, async (opts) => {
    const seconds = Number(opts.timeout ?? 3);
    if (!(seconds > 0)) throw new CliError("--timeout must be a positive number of seconds", EXIT.USAGE);
    const found = await browse(seconds * 1000);
    const text = found.length
      ? found.map((c) => `${c.name.padEnd(20)} ${c.url.padEnd(28)} ${c.host} ${c.addresses.join(" ")}`).join("\n")
      : "no controller answered";
    return { text, json: found, code: found.length ? EXIT.OK : EXIT.UNREACHABLE };
  });
}
