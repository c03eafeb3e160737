// The everyday `tessera` commands, one table row each: usage, arguments, and what it asks the
// controller (docs/openapi.yaml). Each row's `run` returns { text, json } for the human and --json
// outputs.
import { main, controller, request, CliError, EXIT, COLOR, swatch, colour } from "./lib/cli.mjs";

const int = (text, lo, hi, what) => {
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || n < lo || n > hi)
    throw new CliError(`${what} must be an integer ${lo}-${hi}`, EXIT.USAGE);
  return n;
};
const HEX = /^#[0-9a-fA-F]{6}$/;

/** A scene by id or name (case-insensitive); ambiguous or unknown names are refused. */
async function findScene(url, key) {
  const scenes = await request(url, "GET", "/api/scenes");
  const byId = scenes.find((s) => s.id === key);
  if (byId) return byId;
  const named = scenes.filter((s) => s.name.toLowerCase() === key.toLowerCase());
  if (named.length === 1) return named[0];
  if (named.length > 1)
    throw new CliError(
      `${named.length} scenes are named ${key}: use an id (${named.map((s) => s.id).join(", ")})`,
      EXIT.USAGE,
    );
  throw new CliError(`no scene ${key} (tessera scenes lists them)`, EXIT.REFUSED);
}

export const COMMANDS = {
  status: {
    usage: "tessera status\n  Power, playback, speed, appearance and firmware.",
    async run(url) {
      const [state, appearance, panels] = await Promise.all([
        request(url, "GET", "/api/state"),
        request(url, "GET", "/api/appearance"),
        request(url, "GET", "/api/panels/edges"),
      ]);
      const count = new Set(panels.map((e) => e.panel)).size;
      const playing = state.playing
        ? `playing ${state.lastPlayedSceneIsStored ? state.lastPlayedSceneId : "a one-shot scene"} at ${state.speed}x`
        : "not playing";
      const text = [
        `${url}: ${state.isOn ? "on" : "off"}, ${playing}, ${count} panels`,
        `brightness ${appearance.brightness}, palette ${appearance.palette}, base colours ${appearance.baseColors.map(colour).join(" ")}`,
        `firmware ${state.controllerFirmware}`,
      ].join("\n");
      return { text, json: { controller: url, state, appearance, panels: count } };
    },
  },
  power: {
    usage: "tessera power on|off\n  Turns every panel on or off.",
    positionals: [1, 1],
    async run(url, [value]) {
      if (value !== "on" && value !== "off") throw new CliError("power takes on or off", EXIT.USAGE);
      const res = await request(url, "POST", "/api/state/power", { isOn: value === "on" });
      return { text: `power ${value}`, json: res };
    },
  },
  brightness: {
    usage: "tessera brightness N\n  Sets the global brightness, 0-255.",
    positionals: [1, 1],
    async run(url, [n]) {
      const brightness = int(n, 0, 255, "brightness");
      await request(url, "PATCH", "/api/appearance", { brightness });
      return { text: `brightness ${brightness}`, json: { brightness } };
    },
  },
  color: {
    usage:
      "tessera color '#RRGGBB' [--panel N]\n  Sets one panel's colour, or every panel's (a running scene paints over it).",
    options: { panel: { type: "string", short: "p" } },
    positionals: [1, 1],
    async run(url, [color], opts) {
      if (!HEX.test(color)) throw new CliError("the colour must be #RRGGBB", EXIT.USAGE);
      const panels =
        opts.panel !== undefined
          ? [int(opts.panel, 1, 254, "--panel")]
          : (await request(url, "GET", "/api/panels")).map((p) => p.address);
      for (const p of panels) await request(url, "PUT", `/api/panels/${p}/color`, { color });
      return {
        text: `${colour(color)} on panel${panels.length === 1 ? "" : "s"} ${panels.join(", ")}`,
        json: { color, panels },
      };
    },
  },
  palettes: {
    usage: "tessera palettes\n  Lists the palettes with their gradients.",
    async run(url) {
      const palettes = await request(url, "GET", "/api/palettes");
      const width = Math.max(...palettes.map((p) => p.name.length));
      const text = palettes
        .map((p) => `${p.name.padEnd(width)}  ${gradient(p.stops)}  ${p.stops.length} stops`)
        .join("\n");
      return { text, json: palettes };
    },
  },
  scenes: {
    usage: "tessera scenes\n  Lists the stored scenes.",
    async run(url) {
      const scenes = await request(url, "GET", "/api/scenes");
      const rows = scenes.map(
        (s) =>
          `${s.id.padEnd(10)}  ${s.name}  (${s.layerCount} layer${s.layerCount === 1 ? "" : "s"}, ${s.duration ? s.duration + " ms" : "endless"})`,
      );
      return { text: rows.length ? rows.join("\n") : "no scenes", json: scenes };
    },
  },
  play: {
    usage: "tessera play NAME|ID\n  Plays a stored scene, found by id or by name.",
    positionals: [1, 1],
    async run(url, [key]) {
      const scene = await findScene(url, key);
      await request(url, "POST", `/api/scenes/${scene.id}/play`);
      return { text: `playing ${scene.name} (${scene.id})`, json: { playing: scene.id, name: scene.name } };
    },
  },
  stop: {
    usage: "tessera stop\n  Stops the playing scene.",
    async run(url) {
      await request(url, "POST", "/api/scenes/stop");
      return { text: "stopped", json: {} };
    },
  },
  speed: {
    usage: "tessera speed X\n  Sets the playback speed, 0.1-10.",
    positionals: [1, 1],
    async run(url, [x]) {
      const speed = Number(x);
      if (!Number.isFinite(speed) || speed < 0.1 || speed > 10)
        throw new CliError("speed must be a number 0.1-10", EXIT.USAGE);
      const res = await request(url, "POST", "/api/scenes/speed", { speed });
      return { text: `speed ${res.speed}`, json: res };
    },
  },
  trigger: {
    usage:
      "tessera trigger GROUP VALUE\n  A reactive beat: GROUP a number 1-254 or a layer name of the playing scene, VALUE 0-255.",
    positionals: [2, 2],
    async run(url, [group, value]) {
      const body = {
        group: /^\d+$/.test(group) ? int(group, 1, 254, "GROUP") : group,
        value: int(value, 0, 255, "VALUE"),
      };
      await request(url, "POST", "/api/animations/trigger", body);
      return { text: `triggered ${group} at ${body.value}`, json: body };
    },
  },
};

/** A palette's stops: a swatch each where colour is on, else their colours. */
const gradient = (stops) =>
  COLOR ? stops.map(([, c]) => swatch(parseInt(c.slice(1), 16))).join("") : stops.map(([, c]) => c).join(" ");

/** The command `name` as a module of the dispatcher (bin/tessera.mjs). */
export function command(name) {
  const c = COMMANDS[name];
  return {
    run: (args) =>
      main(args, c.options ?? {}, c.positionals ?? [0, 0], c.usage, async (opts) =>
        c.run(await controller(opts), opts.args, opts),
      ),
  };
}
