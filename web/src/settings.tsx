// Settings: power on boot, the logical root, MQTT with its live connection state, the firmware
// version, the panel firmware upload (firmware.tsx) and the Wi-Fi setup form (/setup, which stays
// as it is for the device's first boot).
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type Configuration, type Mqtt } from "./api.js";
import type { AppState } from "./link.js";
import { Err, useAction } from "./ui.js";
import { PanelFirmware } from "./firmware.js";

export function Settings(props: {
  config: Configuration | null;
  app: AppState | null;
  patchConfig(p: Partial<Configuration>): Promise<unknown>;
}) {
  const [err, run] = useAction();
  const [root, setRoot] = useState("");
  const c = props.config;
  useEffect(() => setRoot(String(c?.logicalRoot ?? 0)), [c?.logicalRoot]);
  return (
    <section class="card" aria-labelledby="set-h">
      <h2 id="set-h">Settings</h2>
      {c && (
        <div class="form">
          <label class="field">
            <span>Power on boot</span>
            <select
              value={c.powerStateOnBoot}
              onChange={(e) => run(() => props.patchConfig({ powerStateOnBoot: Number(e.currentTarget.value) }))}
            >
              <option value={0}>Always on</option>
              <option value={1}>Always off</option>
              <option value={2}>As it was</option>
            </select>
          </label>
          <form
            class="field"
            onSubmit={(e) => {
              e.preventDefault();
              void run(() => props.patchConfig({ logicalRoot: Number(root) }));
            }}
          >
            <label for="root">Logical root (0: the panel wired to the controller; or click a panel)</label>
            <div class="row">
              <input
                id="root"
                type="number"
                min={0}
                max={254}
                value={root}
                onInput={(e) => setRoot(e.currentTarget.value)}
              />
              <button>Set root</button>
            </div>
          </form>
          <Err msg={err} />
        </div>
      )}
      <p>
        Controller firmware <strong>{props.app?.controllerFirmware || "…"}</strong>
      </p>
      <p>
        <a href="/setup">Wi-Fi setup</a> <span class="muted small">(network name and password, and MQTT)</span>
      </p>
      <PanelFirmware />
      <MqttSettings />
    </section>
  );
}

const MODES = ["Manual (broker below)", "Automatic", "mDNS only", "Home Assistant hosts only"];

function MqttSettings() {
  const [m, setM] = useState<Mqtt | null>(null);
  const [missing, setMissing] = useState(false);
  const [form, setForm] = useState<Partial<Mqtt> & { password?: string }>({});
  const [err, run, , apiErr] = useAction();
  const [done, setDone] = useState("");
  useEffect(() => {
    let stop = false;
    let first = true;
    const poll = () =>
      api<Mqtt>("GET", "/api/mqtt")
        .then((x) => {
          if (stop) return;
          setM(x);
          if (first) setForm(x);
          first = false;
        })
        .catch((e) => e instanceof ApiError && e.status === 404 && setMissing(true));
    void poll();
    const t = window.setInterval(() => !document.hidden && poll(), 3000);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, []);
  if (missing) return <p class="muted">MQTT is not on this controller (the small variant).</p>;
  if (!m) return null;
  const set = (p: typeof form) => {
    setForm((f) => ({ ...f, ...p })); // from the latest form: edits in quick succession all count
    setDone("");
  };
  const state = m.connected
    ? `Connected to ${m.resolvedBroker}:${m.resolvedPort}${m.discoverySource !== "manual" ? ` (found by ${m.discoverySource})` : ""}`
    : !m.enabled
      ? "Off"
      : m.brokerDiscoveryState === "searching"
        ? "Looking for a broker…"
        : `Not connected${m.lastError ? `: ${m.lastError}` : ""}`;
  const save = () =>
    run(async () => {
      const body = { ...form };
      for (const k of [
        "connected",
        "brokerDiscoveryState",
        "resolvedBroker",
        "resolvedPort",
        "discoverySource",
        "lastError",
      ])
        delete (body as Record<string, unknown>)[k];
      if (!body.password) delete body.password;
      setM(await api<Mqtt>("PATCH", "/api/mqtt", body));
      setForm((f) => ({ ...f, password: "" }));
      setDone("Saved.");
    });
  const brokerErr = apiErr?.detail === "broker_required";
  return (
    <form
      class="form mqtt"
      aria-labelledby="mqtt-h"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 id="mqtt-h">MQTT</h3>
      <p class={m.connected ? "ok" : "muted"} aria-live="polite">
        {state}
      </p>
      <label class="check">
        <input type="checkbox" checked={!!form.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
        MQTT enabled
      </label>
      <label class="field">
        <span>Broker discovery</span>
        <select
          value={form.brokerDiscovery ?? 0}
          onChange={(e) => set({ brokerDiscovery: Number(e.currentTarget.value) })}
        >
          {MODES.map((t, i) => (
            <option key={i} value={i}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>Broker host</span>
        <input
          value={form.broker ?? ""}
          onInput={(e) => set({ broker: e.currentTarget.value })}
          aria-invalid={brokerErr}
          aria-describedby={brokerErr ? "mqtt-err" : undefined}
        />
      </label>
      {brokerErr && <Err id="mqtt-err" msg={err} />}
      <label class="field">
        <span>Broker port</span>
        <input
          type="number"
          min={1}
          max={65535}
          value={form.port ?? 1883}
          onInput={(e) => set({ port: Number(e.currentTarget.value) })}
        />
      </label>
      <label class="field">
        <span>User name</span>
        <input
          value={form.username ?? ""}
          autocomplete="off"
          onInput={(e) => set({ username: e.currentTarget.value })}
        />
      </label>
      <label class="field">
        <span>Password</span>
        <input
          type="password"
          value={form.password ?? ""}
          autocomplete="new-password"
          placeholder="unchanged"
          onInput={(e) => set({ password: e.currentTarget.value })}
        />
      </label>
      <label class="field">
        <span>Topic prefix</span>
        <input value={form.topicPrefix ?? ""} onInput={(e) => set({ topicPrefix: e.currentTarget.value })} />
      </label>
      <label class="field">
        <span>Discovery prefix</span>
        <input value={form.discoveryPrefix ?? ""} onInput={(e) => set({ discoveryPrefix: e.currentTarget.value })} />
      </label>
      <button class="primary">Save MQTT settings</button>
      {!brokerErr && <Err msg={err} />}
      <p class="ok" aria-live="polite">
        {done}
      </p>
    </form>
  );
}
