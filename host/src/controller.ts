// The desktop host put together: the core, its store, the virtual panel bus and the server, and
// the main loop that ticks the core. main.ts is the command line around it; tests and the bench
// can start it in-process too.
import path from "node:path";
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Core, seededRandom } from "./core.js";
import { FileStore } from "./store.js";
import { Server } from "./server.js";
import { VirtualBus } from "./bus/virtual-bus.js";
import type { Wire } from "./bus/topology.js";
import { Mdns, unpackAdvertisement } from "./net/mdns.js";
import { MqttSession, unpackConnect } from "./net/mqtt-session.js";
import { OtaReceiver } from "./net/ota.js";
import { StreamReceiver } from "./net/stream.js";
import { DATAGRAM } from "./abi.js";
import { buildId, buildIdHex } from "./image.js";
import { webAssets, webHandler } from "./web.js";
import { SerialPort } from "./serial.js";
import type { PanelFault } from "./bus/flash.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const VARIANT_LIMITS = { small: 32, large: 100 } as const;
export type Variant = keyof typeof VARIANT_LIMITS;
/** DDP's port (--ddp-port overrides it, 0 turns it off). */
export const DDP_PORT = 4048;
/** E1.31's port (--e131-port overrides it, 0 turns it off). */
export const E131_PORT = 5568;

/** The espota self-update port of each variant (the spec's; --ota-port overrides it, 0 turns it off). */
export const VARIANT_OTA_PORTS = { small: 8266, large: 3232 } as const;

export interface ControllerOptions {
  port: number;
  host?: string;
  dataDir: string;
  wires: Wire[];
  variant: Variant;
  logLevel?: "error" | "warn" | "info" | "debug";
  coreWasm?: string;
  panelWasm?: string;
  /** The built web app served at / (default build/web, made by `npm run build`). */
  webDir?: string;
  /** Test hook: the core's and the panels' clocks stand still and only advance through
   * `POST /__test__/clock {"advance": ms}` (see docs/desktop-host.md). */
  manualClock?: boolean;
  /** Called with the URL once the server listens, before any info line of the start is logged. */
  onListening?: (url: string) => void;
  /** Advertise and browse by mDNS (default true; --no-mdns turns it off). */
  mdns?: boolean;
  /** Test hook: host_random() replays a fixed sequence from this seed (the spawners' rain, scene
   * ids), instead of crypto entropy (see docs/desktop-host.md). */
  seed?: number;
  /** Self-update (espota's protocol) on this UDP port: default the variant's, 0 off (host/src/net/ota.ts). */
  otaPort?: number;
  /** The DDP live stream input on this UDP port: default 4048, 0 off (host/src/net/stream.ts). */
  ddpPort?: number;
  /** The E1.31 (sACN) live stream input on this UDP port: default 5568, 0 off. */
  e131Port?: number;
  /** The serial port (a tty or a pty) for the firmware frame; none by default. */
  serial?: string;
  /** Test hook: the store's files may take at most this many bytes (a full partition: STORE_FULL). */
  storeLimit?: number;
  /** Test hook: emulated panels whose bootloader fails (docs/desktop-host.md). */
  panelFaults?: PanelFault[];
  /** WebSocket ping interval in ms (default 10000); a connection silent for two intervals may be
   * closed to make room, one that answers nothing for an interval is dropped (docs/desktop-host.md). */
  wsPingMs?: number;
}

export interface RunningController {
  url: string;
  port: number;
  hostname: string;
  core: Core;
  bus: VirtualBus;
  /** The last station credentials the setup form handed over (host_wifi_configure). */
  wifi: { ssid: string; password: string } | null;
  close(): Promise<void>;
}

const LEVELS = ["error", "warn", "info", "debug"];

/** The persisted chip id: six hex digits, like the low bytes of a device's MAC. */
export function chipId(dataDir: string): string {
  const file = path.join(dataDir, "chipid");
  try {
    const id = fs.readFileSync(file, "utf8").trim();
    if (/^[0-9a-f]{6}$/.test(id)) return id;
  } catch {
    // first start: make one
  }
  const id = randomBytes(3).toString("hex");
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, id + "\n");
  return id;
}

export async function startController(opts: ControllerOptions): Promise<RunningController> {
  const logLevel = LEVELS.indexOf(opts.logLevel ?? "info");
  // Info and debug lines of the start (discovery) wait until the server listens, so that whoever
  // started us can print the app's address first (onListening); errors and warnings never wait.
  let early: string[] | null = [];
  const log = (level: string, message: string) => {
    if (LEVELS.indexOf(level) > logLevel) return;
    const line = `[${level}] ${message}`;
    if (early && level !== "error" && level !== "warn") early.push(line);
    else console.error(line);
  };
  const store = new FileStore(opts.dataDir, opts.storeLimit);
  const hostname = `tessera-${chipId(opts.dataDir)}`;
  const start = performance.now();
  let virtualMs = 0;
  const clockMs = opts.manualClock ? () => virtualMs : () => performance.now() - start;
  let server!: Server;
  let core!: Core;
  let boundPort = opts.port;
  const mdns = new Mdns(opts.mdns ?? true, log);
  // Session and browse events arrive from the event loop, never inside a core call.
  const mqtt = new MqttSession({
    event: (kind, reason) => {
      core.mqttEvent(kind, reason);
      kick();
    },
    message: (topic, payload) => {
      core.mqttMessage(topic, payload);
      kick();
    },
    log,
  });
  const running = { wifi: null as RunningController["wifi"] };
  const bus = new VirtualBus(
    opts.panelWasm ?? path.join(ROOT, "build/panel.wasm"),
    opts.wires,
    (bytes) => {
      core.busReceive(bytes);
      kick();
    },
    {
      ...(opts.manualClock ? { clock: () => Math.floor(virtualMs) } : {}),
      flashDir: path.join(opts.dataDir, ".panels"),
      faults: opts.panelFaults,
    },
  );
  let serial: SerialPort | null = null;

  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let closed = false;
  // POST /__test__/clock {"hold": true} (--manual-clock): only that endpoint ticks the core until
  // {"hold": false}, so that requests can fill the work queue (docs/desktop-host.md).
  let held = false;
  const tick = () => {
    clearTimeout(timer);
    immediate = undefined;
    if (closed || held) return;
    // Packets already on the wire are received before the core looks at its timers, as a device
    // drains its UART before its main loop runs: a busy process must not turn into a bus timeout.
    bus.pump();
    const next = core.tick();
    timer = setTimeout(tick, Math.max(1, Math.min(next, 100)));
  };
  const kick = () => {
    if (!immediate && !closed) immediate = setImmediate(tick);
  };

  server = new Server(
    {
      allow: (r, h, o) => core.allow(r, h, o),
      log,
      http: (...a) => core.http(...a),
      httpMore: (r, b, m) => core.httpMore(r, b, m),
      wsOpen: (c) => core.wsOpen(c),
      wsFrame: (c, f) => core.wsFrame(c, f),
      wsClose: (c) => core.wsClose(c),
      kick,
    },
    opts.wsPingMs,
  );
  core = new Core(opts.coreWasm ?? path.join(ROOT, "build/controller.wasm"), VARIANT_LIMITS[opts.variant], {
    busSend: (bytes) => bus.sendFromController(bytes),
    httpHead: (r, s, l) => server.httpHead(r, s, l),
    httpBody: (r, b) => server.httpBody(r, b),
    httpEnd: (r) => server.httpEnd(r),
    wsSend: (c, b) => server.wsSend(c, b),
    wsBroadcast: (b) => server.wsBroadcast(b),
    store,
    serialWrite: (bytes) => serial?.write(bytes),
    clockMs,
    random: opts.seed === undefined ? undefined : seededRandom(opts.seed),
    log,
    restarted: () => server.resetAfterCoreRestart(),
    net: {
      hostname,
      httpPort: () => boundPort,
      mdnsAdvertise: (record) => {
        const ad = unpackAdvertisement(record);
        if (ad) mdns.advertise(ad);
        else log("warn", "mdns: malformed advertisement record");
      },
      mdnsBrowse: (service, timeoutMs) =>
        mdns.browse(
          service,
          timeoutMs,
          (host, port) => {
            core.mdnsResult(host, port);
            kick();
          },
          () => {
            core.mdnsDone();
            kick();
          },
        ),
      mqttConnect: (record) => {
        const p = unpackConnect(record);
        if (p) mqtt.connect(p);
        else log("warn", "mqtt: malformed connect record");
      },
      mqttPublish: (topic, payload, retain) => mqtt.publish(topic, payload, retain),
      mqttSubscribe: (topic) => mqtt.subscribe(topic),
      mqttDisconnect: () => mqtt.disconnect(),
      wifiConfigure: (ssid, password) => {
        // A computer has no station to join: remember and report it.
        running.wifi = { ssid, password };
        console.log(`wifi: station credentials for ${JSON.stringify(ssid)} received (desktop host: not applied)`);
      },
    },
  });
  // The image a self-update kept boots in place of the build's, as on a device; one that is no core,
  // or whose boot traps, leaves the build's core running (the log says why).
  const kept = path.join(opts.dataDir, "controller.wasm");
  if (!opts.coreWasm && fs.existsSync(kept)) {
    try {
      core.swap(fs.readFileSync(kept));
      log("info", `core: booting image ${core.buildId}, kept by a self-update (${kept})`);
    } catch (e) {
      log("warn", `core: cannot boot ${kept} (${(e as Error).message}); the build's core runs`);
    }
  }
  if (opts.serial) {
    serial = new SerialPort(
      opts.serial,
      (bytes) => {
        core.serialReceive(bytes);
        kick();
      },
      log,
    );
  }
  const web = webHandler(webAssets(opts.webDir ?? path.join(ROOT, "build/web"), log));
  server.staticHandler = web;
  if (opts.manualClock) {
    // POST /__test__/clock {"advance": ms, "hold": bool}: the clock moves in steps of at most 5 ms,
    // and at each step the core ticks and every bus packet is delivered, as if that time had passed.
    // `hold` (set first) stops or restarts the host's own ticks.
    server.staticHandler = (req, res) => {
      if ((req.url ?? "").split("?")[0] !== "/__test__/clock") return web(req, res);
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        let advance = NaN;
        let hold: unknown;
        try {
          const fields = JSON.parse(body || "{}");
          advance = Number(fields.advance ?? 0);
          hold = fields.hold;
        } catch {
          // not JSON (or null): 400 below
        }
        const holdOk = hold === undefined || typeof hold === "boolean";
        if (req.method !== "POST" || !Number.isFinite(advance) || advance < 0 || !holdOk) {
          res.writeHead(400, { "content-type": "application/json" }).end('{"error":"invalid_json"}');
          return;
        }
        if (typeof hold === "boolean" && hold !== held) {
          held = hold;
          kick(); // released: the ordinary ticks start again
        }
        const settle = () => {
          core.tick();
          bus.pump();
          core.tick();
          bus.pump();
        };
        settle();
        let left = advance;
        while (left > 0) {
          const step = Math.min(5, left);
          virtualMs += step;
          left -= step;
          settle();
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ now: virtualMs }));
      });
      return true;
    };
  }
  const port = await server.listen(opts.port, opts.host);
  boundPort = port;
  // Self-update: the image is a controller.wasm; the new core replaces the running one on the same
  // store, the panels are discovered again, open connections get its APP_STATE. Kept in the data
  // directory as controller.wasm, which the next start boots.
  const otaPort = opts.otaPort ?? VARIANT_OTA_PORTS[opts.variant];
  const ota =
    otaPort > 0
      ? new OtaReceiver({
          port: otaPort,
          host: opts.host,
          log,
          install: (image) => {
            const from = core.buildId;
            core.swap(image);
            log("info", `ota: core ${from} replaced by ${buildIdHex(buildId(image))}`);
            server.reopenAfterCoreSwap();
            kick();
            try {
              fs.writeFileSync(path.join(opts.dataDir, "controller.wasm.tmp"), image);
              fs.renameSync(path.join(opts.dataDir, "controller.wasm.tmp"), path.join(opts.dataDir, "controller.wasm"));
            } catch (e) {
              log("warn", `ota: cannot keep a copy of the image: ${(e as Error).message}`);
            }
          },
        })
      : null;
  if (ota && (await ota.start())) mdns.advertiseOta(hostname, otaPort, `tessera-desktop-${opts.variant}`);
  const streamInput = (port: number, kind: number, name: string) =>
    port > 0
      ? new StreamReceiver({
          port,
          host: opts.host,
          kind,
          name,
          log,
          datagram: (k, source, bytes) => {
            core.datagram(k, source, bytes);
            kick();
          },
        })
      : null;
  const inputs = [
    streamInput(opts.ddpPort ?? DDP_PORT, DATAGRAM.ddp, "ddp"),
    streamInput(opts.e131Port ?? E131_PORT, DATAGRAM.e131, "e131"),
  ];
  for (const input of inputs) await input?.start();
  opts.onListening?.(`http://localhost:${port}`);
  for (const line of early) console.error(line);
  early = null;
  tick();
  return {
    url: `http://localhost:${port}`,
    port,
    hostname,
    core,
    bus,
    get wifi() {
      return running.wifi;
    },
    async close() {
      closed = true;
      serial?.close();
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      await ota?.close();
      for (const input of inputs) await input?.close();
      await mqtt.shutdown();
      await mdns.close();
      await server.close();
    },
  };
}
