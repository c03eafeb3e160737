// `npm start`: the Tessera controller on this computer, with emulated panels.
import { parseArgs } from "node:util";
import path from "node:path";
import { startController, VARIANT_LIMITS, type Variant } from "./controller.js";
import { generateTopology, loadTopology } from "./bus/topology.js";
import { parseFault } from "./bus/flash.js";

const HELP = `Usage: npm start -- [options]

Runs the Tessera controller core with a virtual bus of emulated panels.

Options:
  --port N            HTTP and WebSocket port (default 8080; 0 picks a free one)
  --host ADDR         address to listen on (default: all interfaces)
  --data-dir DIR      where settings are stored (default ./data)
  --panels N          generate a tree of N triangle panels (default 12)
  --topology FILE     wire the panels as a JSON file describes (see docs/desktop-host.md)
  --variant small|large   panel limit 32 or 100 (default large)
  --log-level LEVEL   error, warn, info or debug (default info)
  --manual-clock      test hook: the clock only advances through POST /__test__/clock
  --no-mdns           neither advertise (_tessera._tcp, _arduino._tcp) nor browse (_mqtt._tcp) by mDNS
  --ota-port N        self-update with Arduino's espota.py or \`tessera ota\` on this UDP port
                      (default 3232 on the large variant, 8266 on the small one; 0 turns it off)
  --ddp-port N        the DDP live stream input on this UDP port (default 4048; 0 turns it off)
  --e131-port N       the E1.31 (sACN) live stream input on this UDP port (default 5568; 0 turns it off)
  --seed N            test hook: host_random() replays a fixed sequence (0-4294967295)
  --serial PATH       the serial port for firmware frames (a tty or a pty; 57600 baud 8N1)
  --store-limit BYTES test hook: the store holds at most this many bytes (then it is full)
  --panel-fault F     test hook, repeatable: silent:ADDRESS, nak:ADDRESS:PAGE or verify:ADDRESS
                      (an emulated panel's bootloader never answers, refuses a page, reads back wrong)
  --ws-ping-ms N      WebSocket ping interval (default 10000, 100-600000; docs/desktop-host.md)
  --help              this text
`;

/** A usage error: the message, then the usage. */
function fail(message: string): never {
  console.error(`error: ${message}\n\n${HELP}`);
  process.exit(2);
}

/** The controller could not start (the options were fine): one line saying why. */
function die(e: Error & { code?: string }, port: number, host: string | undefined): never {
  const where = `${host ?? "port"}${host ? ":" : " "}${port}`;
  if (e.code === "EADDRINUSE") console.error(`error: ${where} is already in use (another --port, or 0 for a free one)`);
  else if (e.code === "EADDRNOTAVAIL") console.error(`error: ${host} is not an address of this machine (--host)`);
  else if (e.code === "EACCES") console.error(`error: no permission to listen on ${where} (try a port above 1023)`);
  else console.error(`error: ${e.message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", default: "8080" },
        host: { type: "string" },
        "data-dir": { type: "string", default: "data" },
        panels: { type: "string" },
        topology: { type: "string" },
        variant: { type: "string", default: "large" },
        "log-level": { type: "string", default: "info" },
        "manual-clock": { type: "boolean", default: false },
        "no-mdns": { type: "boolean", default: false },
        seed: { type: "string" },
        "ota-port": { type: "string" },
        "ddp-port": { type: "string" },
        "e131-port": { type: "string" },
        serial: { type: "string" },
        "store-limit": { type: "string" },
        "panel-fault": { type: "string", multiple: true },
        "ws-ping-ms": { type: "string", default: "10000" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail("--port must be 0-65535");
  if (!(values.variant in VARIANT_LIMITS)) fail("--variant must be small or large");
  if (!["error", "warn", "info", "debug"].includes(values["log-level"]!))
    fail("--log-level must be error, warn, info or debug");
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && (!/^\d+$/.test(values.seed!) || seed > 0xffffffff)) fail("--seed must be 0-4294967295");
  const otaPort = values["ota-port"] === undefined ? undefined : Number(values["ota-port"]);
  if (otaPort !== undefined && (!/^\d+$/.test(values["ota-port"]!) || otaPort > 65535))
    fail("--ota-port must be 0-65535");
  const udpPort = (flag: "ddp-port" | "e131-port"): number | undefined => {
    const v = values[flag];
    if (v !== undefined && (!/^\d+$/.test(v) || Number(v) > 65535)) fail(`--${flag} must be 0-65535`);
    return v === undefined ? undefined : Number(v);
  };
  const ddpPort = udpPort("ddp-port");
  const e131Port = udpPort("e131-port");
  const storeLimit = values["store-limit"] === undefined ? undefined : Number(values["store-limit"]);
  if (storeLimit !== undefined && !/^\d+$/.test(values["store-limit"]!)) fail("--store-limit must be a byte count");
  let panelFaults;
  try {
    panelFaults = (values["panel-fault"] ?? []).map(parseFault);
  } catch (e) {
    fail((e as Error).message);
  }
  const wsPingMs = Number(values["ws-ping-ms"]);
  if (!Number.isInteger(wsPingMs) || wsPingMs < 100 || wsPingMs > 600000) fail("--ws-ping-ms must be 100-600000");
  if (values.panels !== undefined && values.topology !== undefined) fail("give --panels or --topology, not both");
  let wires;
  try {
    if (values.topology !== undefined) wires = loadTopology(values.topology);
    else {
      const n = Number(values.panels ?? "12");
      if (!Number.isInteger(n) || n < 0 || n > 254) fail("--panels must be 0-254");
      wires = generateTopology(n);
    }
  } catch (e) {
    fail(`topology: ${(e as Error).message}`);
  }
  const controller = await startController({
    port,
    host: values.host,
    dataDir: path.resolve(values["data-dir"]!),
    wires,
    variant: values.variant as Variant,
    logLevel: values["log-level"] as "info",
    manualClock: values["manual-clock"],
    mdns: !values["no-mdns"],
    seed,
    otaPort,
    ddpPort,
    e131Port,
    serial: values.serial,
    storeLimit,
    panelFaults,
    wsPingMs,
    onListening: (url) => console.log(`Open the Tessera app: ${url}/`),
  }).catch((e: Error) => die(e, port, values.host));
  console.log(`Tessera controller ${controller.hostname} listening on ${controller.url}`);
  console.log(
    `  ${wires.length} emulated panels, variant ${values.variant}, data in ${path.resolve(values["data-dir"]!)}`,
  );
  console.log(`  the JSON API: curl ${controller.url}/api/state; Wi-Fi setup form: ${controller.url}/setup`);
  const stop = () => {
    void controller.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
