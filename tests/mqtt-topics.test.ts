// MQTT topics and Home Assistant discovery against a real broker (aedes, in process) and a real
// `mqtt` client: the discovery documents, the states at connect and on every change, and every
// command topic driving the controller (checked over HTTP and WebSocket).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, waitFor, type Host } from "./helpers/host.js";
import { startBroker, connectToBroker, Observer, type Broker } from "./helpers/mqtt.js";
import { Client, T } from "./helpers/frames.js";
import { baseScene } from "./helpers/scenes.js";

let broker: Broker;
let host: Host;
let obs: Observer;
let prefix: string;
let firmware: string;

const configTopic = (component: string, key: string) => `homeassistant/${component}/${host.hostname}_${key}/config`;

async function state(): Promise<any> {
  return (await api(host, "GET", "/api/state")).body;
}

before(async () => {
  broker = await startBroker();
  obs = await Observer.connect(broker.port);
  host = await startHost({ panels: 4 });
  prefix = `tessera/${host.hostname}`;
  firmware = (await state()).controllerFirmware;
  await connectToBroker(host, broker.port);
  // the birth message comes after the five configs: from then on a fresh subscriber gets them retained
  await obs.waitFor(`${prefix}/status`, (p) => p === "online");
});

after(async () => {
  await host?.stop();
  await obs?.close();
  await broker?.close();
});

test("GET /api/mqtt reports the manual broker it is connected to", async () => {
  const { body } = await api(host, "GET", "/api/mqtt");
  assert.deepEqual(body, {
    enabled: true,
    brokerDiscovery: 0,
    broker: "127.0.0.1",
    port: broker.port,
    username: "",
    topicPrefix: prefix,
    discoveryPrefix: "homeassistant",
    connected: true,
    brokerDiscoveryState: "idle",
    resolvedBroker: "127.0.0.1",
    resolvedPort: broker.port,
    discoverySource: "manual",
    lastError: "none",
  });
});

test("five retained discovery configs with the device block, topics and payloads", async () => {
  // A fresh subscriber gets the retained copies.
  const late = await Observer.connect(broker.port, ["homeassistant/+/+/config", `${prefix}/#`]);
  try {
    const device = {
      identifiers: [host.hostname],
      name: host.hostname,
      manufacturer: "Tessera",
      model: "Tessera controller (large)",
      sw_version: firmware,
      configuration_url: `http://${host.hostname}.local:${host.port}/`,
    };
    const common = (name: string, key: string) => ({
      name,
      unique_id: `${host.hostname}_${key}`,
      availability_topic: `${prefix}/status`,
      device,
    });
    const doc = async (component: string, key: string) => {
      const text = await late.waitFor(configTopic(component, key));
      const m = late.messages.find((x) => x.topic === configTopic(component, key))!;
      assert.equal(m.retain, true, `${component} config is retained`);
      return JSON.parse(text);
    };
    assert.deepEqual(await doc("switch", "power"), {
      ...common("Power", "power"),
      command_topic: `${prefix}/command/power`,
      state_topic: `${prefix}/state/power`,
      payload_on: "ON",
      payload_off: "OFF",
    });
    assert.deepEqual(await doc("light", "light"), {
      ...common("Light", "light"),
      command_topic: `${prefix}/command/light`,
      state_topic: `${prefix}/state/light`,
      brightness_command_topic: `${prefix}/command/brightness`,
      brightness_state_topic: `${prefix}/state/brightness`,
      brightness_scale: 255,
      on_command_type: "first",
      payload_on: "ON",
      payload_off: "OFF",
    });
    const select = await doc("select", "scene");
    assert.deepEqual(Object.keys(select).sort(), [
      "availability_topic",
      "command_template",
      "command_topic",
      "device",
      "name",
      "options",
      "state_topic",
      "unique_id",
      "value_template",
    ]);
    assert.equal(select.command_topic, `${prefix}/command/scene`);
    assert.equal(select.state_topic, `${prefix}/state/scene`);
    // Home Assistant shows a `none` state as unknown: "stopped" is a real option, sent as `none`
    assert.equal(select.options[0], "Stopped");
    assert.equal(select.command_template, "{{ 'none' if value == 'Stopped' else value.split('(')[-1].rstrip(')') }}");
    assert.deepEqual(await doc("binary_sensor", "playing"), {
      ...common("Playing", "playing"),
      state_topic: `${prefix}/state/playing`,
      payload_on: "true",
      payload_off: "false",
    });
    assert.deepEqual(await doc("sensor", "speed"), {
      ...common("Speed", "speed"),
      state_topic: `${prefix}/state/speed`,
      state_class: "measurement",
    });
    // Birth and states, retained.
    await late.waitFor(`${prefix}/status`, (p) => p === "online");
    for (const [suffix, value] of [
      ["state/power", "ON"],
      ["state/light", "ON"],
      ["state/brightness", "255"],
      ["state/scene", "none"],
      ["state/playing", "false"],
      ["state/speed", "1"],
    ]) {
      assert.equal(await late.waitFor(`${prefix}/${suffix}`), value, suffix);
      assert.equal(late.messages.find((m) => m.topic === `${prefix}/${suffix}`)!.retain, true, `${suffix} retained`);
    }
  } finally {
    await late.close();
  }
});

test("the scene select lists `Name (id)` and maps ids back; it follows the library", async () => {
  const from = obs.messages.length;
  const created = await api(host, "POST", "/api/scenes", { ...baseScene(), name: "Sun's \\ set" });
  assert.equal(created.status, 200);
  const id = created.body.id as string;
  const select = JSON.parse(await obs.waitFor(configTopic("select", "scene"), (p) => p.includes(id), from));
  assert.deepEqual(select.options, ["Stopped", `Sun's \\ set (${id})`]);
  // The label sits in a single-quoted Jinja literal: quote and backslash escaped.
  assert.equal(select.value_template, `{{ {'${id}':'Sun\\'s \\\\ set (${id})',}.get(value, 'Stopped') }}`);
  // Deleting the scene republishes the options without it.
  const mark = obs.messages.length;
  assert.equal((await api(host, "DELETE", `/api/scenes/${id}`)).status, 200);
  const after = JSON.parse(await obs.waitFor(configTopic("select", "scene"), (p) => !p.includes(id), mark));
  assert.deepEqual(after.options, ["Stopped"]);
});

test("a select of many scenes, written in 1 KiB pieces into the host's outbox, arrives whole", async () => {
  const names = Array.from({ length: 40 }, (_, i) => `${"晚".repeat(30)} "${i}" \\`);
  const ids: string[] = [];
  try {
    for (const name of names) {
      const created = await api(host, "POST", "/api/scenes", { ...baseScene(), name });
      assert.equal(created.status, 200);
      ids.push(created.body.id);
    }
    const payload = await obs.waitFor(configTopic("select", "scene"), (p) => ids.every((id) => p.includes(id)));
    assert.ok(Buffer.byteLength(payload) > 8 * 1024, `${Buffer.byteLength(payload)} bytes: many pieces`);
    const select = JSON.parse(payload);
    const labels = names.map((name, i) => `${name} (${ids[i]})`);
    assert.deepEqual(select.options.slice(1).sort(), [...labels].sort());
    for (const [i, id] of ids.entries())
      assert.ok(
        select.value_template.includes(`'${id}':'${labels[i].replaceAll("\\", "\\\\")}'`),
        `${id} maps back to its label`,
      );
  } finally {
    for (const id of ids) await api(host, "DELETE", `/api/scenes/${id}`);
  }
});

test("select labels survive Home Assistant: no spaces around the name, no character cut in half", async () => {
  const names = ["  Dawn  ", "a".repeat(39) + "😀zz", "   "];
  const ids: string[] = [];
  try {
    for (const name of names) {
      const from = obs.messages.length;
      const created = await api(host, "POST", "/api/scenes", { ...baseScene(), name });
      assert.equal(created.status, 200);
      ids.push(created.body.id);
      await obs.waitFor(configTopic("select", "scene"), (p) => p.includes(created.body.id), from);
    }
    const select = JSON.parse(
      await obs.waitFor(configTopic("select", "scene"), (p) => ids.every((id) => p.includes(id))),
    );
    const expected = [`Dawn (${ids[0]})`, `${"a".repeat(39)} (${ids[1]})`, `${ids[2]} (${ids[2]})`];
    assert.deepEqual(select.options.slice(1).sort(), [...expected].sort()); // listed in name order
    for (const option of expected) assert.equal(option, option.trim(), "Home Assistant strips template output");
    assert.ok(!select.value_template.includes("\uFFFD") && !/[\uD800-\uDFFF]/.test(select.value_template));
  } finally {
    for (const id of ids) await api(host, "DELETE", `/api/scenes/${id}`);
  }
});

test("every command topic changes the controller through the core", async () => {
  const scene = await api(host, "POST", "/api/scenes", { ...baseScene(), name: "Dusk" });
  const id = scene.body.id as string;
  try {
    let from = obs.messages.length;
    await obs.publish(`${prefix}/command/power`, "OFF");
    await waitFor(async () => (await state()).isOn === false);
    assert.equal(await obs.waitFor(`${prefix}/state/power`, (p) => p === "OFF", from), "OFF");

    // Brightness and scene are ignored while off.
    await obs.publish(`${prefix}/command/brightness`, "40");
    await obs.publish(`${prefix}/command/scene`, id);
    await obs.publish(`${prefix}/command/power`, "ON");
    await waitFor(async () => (await state()).isOn === true);
    assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 255);
    assert.equal((await state()).playing, false);

    from = obs.messages.length;
    await obs.publish(`${prefix}/command/brightness`, "100");
    await waitFor(async () => (await api(host, "GET", "/api/appearance")).body.brightness === 100);
    assert.equal(await obs.waitFor(`${prefix}/state/brightness`, (p) => p === "100", from), "100");

    from = obs.messages.length;
    await obs.publish(`${prefix}/command/scene`, id);
    await waitFor(async () => (await state()).playing === true);
    assert.equal((await state()).lastPlayedSceneId, id);
    await obs.waitFor(`${prefix}/state/scene`, (p) => p === id, from);
    await obs.waitFor(`${prefix}/state/playing`, (p) => p === "true", from);
    await obs.waitFor(`${prefix}/state/speed`, (p) => p === "1.5", from); // the scene's own speed

    from = obs.messages.length;
    await obs.publish(`${prefix}/command/stop`, "whatever");
    await waitFor(async () => (await state()).playing === false);
    await obs.waitFor(`${prefix}/state/scene`, (p) => p === "none", from);
    await obs.waitFor(`${prefix}/state/playing`, (p) => p === "false", from);

    await obs.publish(`${prefix}/command/scene`, id);
    await waitFor(async () => (await state()).playing === true);
    await obs.publish(`${prefix}/command/scene`, "none");
    await waitFor(async () => (await state()).playing === false);
  } finally {
    await api(host, "DELETE", `/api/scenes/${id}`);
    await api(host, "PATCH", "/api/appearance", { brightness: 255 });
  }
});

test("the light is off at brightness 0, and turning it on brings back its last brightness", async () => {
  try {
    let from = obs.messages.length;
    await obs.publish(`${prefix}/command/brightness`, "90");
    await obs.waitFor(`${prefix}/state/brightness`, (p) => p === "90", from);
    from = obs.messages.length;
    await obs.publish(`${prefix}/command/brightness`, "0");
    await obs.waitFor(`${prefix}/state/light`, (p) => p === "OFF", from);
    assert.equal((await state()).isOn, true, "brightness 0 leaves the power on");
    assert.equal(await obs.waitFor(`${prefix}/state/power`), "ON");

    from = obs.messages.length;
    await obs.publish(`${prefix}/command/light`, "ON");
    await obs.waitFor(`${prefix}/state/light`, (p) => p === "ON", from);
    assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 90);

    from = obs.messages.length;
    await obs.publish(`${prefix}/command/light`, "OFF");
    await obs.waitFor(`${prefix}/state/light`, (p) => p === "OFF", from);
    await obs.waitFor(`${prefix}/state/power`, (p) => p === "OFF", from);
    assert.equal((await state()).isOn, false);

    from = obs.messages.length;
    await obs.publish(`${prefix}/command/light`, "ON");
    await obs.waitFor(`${prefix}/state/light`, (p) => p === "ON", from);
    assert.equal((await state()).isOn, true);
    assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 90);
  } finally {
    await api(host, "POST", "/api/state/power", { isOn: true });
    await api(host, "PATCH", "/api/appearance", { brightness: 255 });
  }
});

test("bad command payloads are ignored and change nothing", async () => {
  // the hidden one-shot scene exists, but is not a library scene: MQTT cannot play it either
  assert.equal((await api(host, "POST", "/api/scenes/play/one-shot", baseScene())).status, 202);
  await waitFor(async () => (await state()).playing === true);
  await api(host, "POST", "/api/scenes/stop");
  await waitFor(async () => (await state()).playing === false);
  const before = await state();
  const brightness = (await api(host, "GET", "/api/appearance")).body.brightness;
  for (const [suffix, payload] of [
    ["command/power", "on"],
    ["command/power", ""],
    ["command/light", "on"],
    ["command/brightness", "256"],
    ["command/brightness", "-1"],
    ["command/brightness", "12.5"],
    ["command/brightness", "007"],
    ["command/scene", "nosuchscene"],
    ["command/scene", "../../etc"],
    ["command/scene", "oneshot000"],
    ["command/unknown", "ON"],
    ["command/power", "x".repeat(5000)],
    ["command/power", "y".repeat(31) + "\u{1F600}z"],
  ])
    await obs.publish(`${prefix}/${suffix}`, payload);
  // A valid command behind them proves they were all handled (in order).
  await obs.publish(`${prefix}/command/brightness`, String(brightness === 200 ? 201 : 200));
  await waitFor(async () => (await api(host, "GET", "/api/appearance")).body.brightness !== brightness);
  const now = await state();
  assert.equal(now.isOn, before.isOn);
  assert.equal(now.playing, before.playing);
  // each is logged with its topic and payload (a long one cut to 32 UTF-16 units, never inside a pair) and why
  const log = host.output();
  assert.ok(log.includes(`mqtt: ignored ${prefix}/command/power "on": not ON or OFF`), log);
  assert.ok(log.includes(`mqtt: ignored ${prefix}/command/brightness "007": not 0-255`), log);
  assert.ok(log.includes(`mqtt: ignored ${prefix}/command/scene "oneshot000": no such scene`), log);
  assert.ok(log.includes(`mqtt: ignored ${prefix}/command/power "${"y".repeat(31)}...": not ON or OFF`), log);
  assert.equal((await api(host, "GET", "/api/mqtt")).body.connected, true);
  await api(host, "PATCH", "/api/appearance", { brightness: 255 });
});

test("state topics follow HTTP changes, in step with the WebSocket APP_STATE", async () => {
  const ws = await Client.connect(host.wsUrl);
  try {
    await ws.next(T.APP_STATE);
    let from = obs.messages.length;
    assert.equal((await api(host, "POST", "/api/state/power", { isOn: false })).status, 202);
    await obs.waitFor(`${prefix}/state/power`, (p) => p === "OFF", from);
    const off = await ws.next(T.APP_STATE);
    assert.equal(off.payload[0], 0, "APP_STATE isOn false");

    from = obs.messages.length;
    await api(host, "POST", "/api/state/power", { isOn: true });
    await obs.waitFor(`${prefix}/state/power`, (p) => p === "ON", from);
    assert.equal((await ws.next(T.APP_STATE)).payload[0], 1);

    from = obs.messages.length;
    await api(host, "PATCH", "/api/appearance", { brightness: 17 });
    await obs.waitFor(`${prefix}/state/brightness`, (p) => p === "17", from);

    from = obs.messages.length;
    assert.equal((await api(host, "POST", "/api/scenes/speed", { speed: 2.25 })).status, 202);
    await obs.waitFor(`${prefix}/state/speed`, (p) => p === "2.25", from);
    await api(host, "POST", "/api/scenes/speed", { speed: 1 });
    await api(host, "PATCH", "/api/appearance", { brightness: 255 });
  } finally {
    ws.close();
  }
});

test("Home Assistant coming online gets every config and state again", async () => {
  const from = obs.messages.length;
  await obs.publish("homeassistant/status", "offline");
  await obs.publish("homeassistant/status", "online");
  for (const [c, k] of [
    ["switch", "power"],
    ["light", "light"],
    ["select", "scene"],
    ["binary_sensor", "playing"],
    ["sensor", "speed"],
  ])
    await obs.waitFor(configTopic(c, k), () => true, from);
  for (const s of [
    "status",
    "state/power",
    "state/light",
    "state/brightness",
    "state/scene",
    "state/playing",
    "state/speed",
  ])
    await obs.waitFor(`${prefix}/${s}`, () => true, from);
});
