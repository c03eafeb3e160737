// `tessera backup FILE`: the controller's scenes, custom palettes, appearance, configuration and MQTT
// settings (no password) in one JSON file (bin/lib/backup.mjs); `-` writes to stdout.
import fs from "node:fs";
import { main, controller } from "./lib/cli.mjs";
import { read } from "./lib/backup.mjs";

const USAGE =
  "tessera backup FILE\n  Saves scenes, custom palettes, appearance, configuration and MQTT settings (without the password) to FILE (- for stdout).";

export function run(args) {
  return main(args, {}, [1, 1], USAGE, async (opts) => {
    const backup = await read(await controller(opts));
    const text = JSON.stringify(backup, null, 2) + "\n";
    const file = opts.args[0];
    if (file === "-") process.stdout.write(text);
    else fs.writeFileSync(file, text);
    const summary = {
      file,
      scenes: backup.scenes.length,
      palettes: backup.palettes.length,
      mqtt: backup.mqtt !== null,
    };
    return {
      text:
        file === "-"
          ? ""
          : `saved ${summary.scenes} scenes, ${summary.palettes} palettes, appearance, configuration${summary.mqtt ? ", MQTT settings" : ""} to ${file}`,
      json: summary,
    };
  });
}
