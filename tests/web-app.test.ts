// The web app in a real browser (Debian's chromium, driven by playwright-core) against a real host:
// it loads without console errors, every control changes the controller (checked through the HTTP
// API), changes made through the API show in the page, the live preview (the panels' own firmware
// in the browser) shows what GET /api/panels reports with brightness applied, the page works at
// 375 px and keeps the preview in view on a phone, follows a light colour scheme and installs from
// its manifest. One browser, one page, the steps in order. Screenshots go to test-output/ (git-ignored).
// Without chromium the file is skipped, except in CI (CI=true), where it fails.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { startHost, api, waitFor, tempDir, ROOT, type Host } from "./helpers/host.js";
import { panelImage, FACTORY_VERSION } from "./helpers/panel-image.js";
import { Client, T, frame as wsFrame, mirroredPackets, parseFrame } from "./helpers/frames.js";

const CHROMIUM = [process.env.TESSERA_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p) => p && fs.existsSync(p),
);
const skip = CHROMIUM ? false : "chromium not found (apt-get install chromium; .ci/run installs it)";
if (!CHROMIUM && process.env.CI === "true") throw new Error("CI=true: the browser tests need chromium");

const HOST_NAME = process.env.TESSERA_HOST ? "posix" : "desktop";
const OUT = path.join(ROOT, "test-output");
const N = 12;

let host: Host;
let port: number;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const consoleErrors: string[] = [];
/** What the page's own WebSocket receives: every frame is parsed with its CRCs checked (a mirror batch
 * spoiled on the way, merged or not, lands in frameErrors), and the broadcast POWER off packets of its
 * MIRROR_BATCH frames are counted. */
const frameErrors: string[] = [];
let powerOffsReceived = 0;
const T_POWER = 4; // the bus packet type (docs/bus-protocol.md)

before(async () => {
  if (skip) return;
  fs.mkdirSync(OUT, { recursive: true });
  // A fixed port, so that the controller can come back where the page looks for it (the last test).
  port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, () => {
      const free = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(free));
    });
  });
  [host, browser] = await Promise.all([
    startHost({ panels: N, extraArgs: ["--port", String(port)] }),
    chromium.launch({ executablePath: CHROMIUM }),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10000); // a step that cannot happen fails in seconds, not minutes
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("websocket", (ws) =>
    ws.on("framereceived", ({ payload }) => {
      if (typeof payload === "string") return void frameErrors.push(`a text frame: ${payload.slice(0, 80)}`);
      try {
        const f = parseFrame(payload);
        if (f.type !== T.MIRROR_BATCH) return;
        for (const p of mirroredPackets(f))
          if (p.address === 0 && p.type === T_POWER && p.body[0] === 0) powerOffsReceived++;
      } catch (e) {
        frameErrors.push((e as Error).message);
      }
    }),
  );
});
after(async () => {
  await browser?.close();
  await host?.stop();
});

/** GET a JSON answer, given up after 5 s (a hung request fails the step instead of stalling it). */
async function get(p: string) {
  const res = await fetch(host.url + p, { signal: AbortSignal.timeout(5000) });
  return res.json();
}
/** Polls until `check` passes (an assertion that throws until the controller or page catches up). */
async function eventually(check: () => Promise<void> | void, timeoutMs = 6000): Promise<void> {
  let last: unknown;
  await waitFor(
    async () => {
      try {
        await check();
        return true;
      } catch (e) {
        last = e;
        return false;
      }
    },
    timeoutMs,
    50,
  ).catch(() => {
    throw last;
  });
}
const shot = (name: string, fullPage = false) =>
  page.screenshot({ path: path.join(OUT, `web-${HOST_NAME}-${name}.png`), fullPage });

/** The preview's colours by address. */
async function previewColors(): Promise<Map<number, string>> {
  const pairs = await page
    .getByRole("region", { name: "Live preview" })
    .locator("[data-address]")
    .evaluateAll((els) => els.map((e) => [Number(e.getAttribute("data-address")), e.getAttribute("data-color")!]));
  return new Map(pairs as [number, string][]);
}

/** A colour as the LED shows it: each channel × brightness / 255, rounded. */
function withBrightness(hex: string, b: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = [16, 8, 0].map((s) => Math.floor((((n >> s) & 255) * b + 127) / 255));
  return (
    "#" +
    ch
      .map((c) => c.toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase()
  );
}

test("the page loads with no console errors, draws every panel and goes live", { skip }, async () => {
  await page.goto(host.url + "/");
  await page.getByText("Live", { exact: true }).waitFor();
  const colors = await previewColors();
  assert.deepEqual(
    [...colors.keys()].sort((a, b) => a - b),
    Array.from({ length: N }, (_, i) => i + 1),
  );
  for (const c of colors.values()) assert.match(c, /^#[0-9A-F]{6}$/);
  await page.getByRole("slider", { name: "Brightness" }).waitFor();
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(pageErrors, []);
  await shot("loaded");
});

test("Power switch: a click and the keyboard turn the controller off and on; off shows black", { skip }, async () => {
  const power = page.getByRole("switch", { name: "Power" });
  assert.equal(await power.isChecked(), true);
  const offs = powerOffsReceived;
  await power.click();
  await eventually(async () => assert.equal((await get("/api/state")).isOn, false));
  // The black reaches the preview over more hops than the state does (the host's tick, the mirror's
  // flush, the WebSocket, the page's next animation frame), and a starved machine can hold each for
  // seconds (a CI run under ASan once took 49.7 s for this test, which takes under 1 s): so first
  // the page must receive the broadcast power off, then draw it, each with its own bound, and a
  // failure says which did not happen.
  await eventually(() => assert.ok(powerOffsReceived > offs, "the page received no broadcast power off"), 20000);
  await eventually(async () => {
    const shown = [...(await previewColors()).values()];
    assert.ok(
      shown.every((c) => c === "#000000"),
      `the page received the power off but draws ${shown.join(" ")}`,
    );
  }, 10000);
  assert.deepEqual(frameErrors, []);
  await power.focus();
  await page.keyboard.press("Space");
  await eventually(async () => assert.equal((await get("/api/state")).isOn, true));
  assert.equal(await power.isChecked(), true);
});

test("Brightness slider (keyboard) sets the controller's brightness", { skip }, async () => {
  const slider = page.getByRole("slider", { name: "Brightness" });
  await slider.focus();
  await page.keyboard.press("End");
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowLeft");
  await eventually(async () => assert.equal((await get("/api/appearance")).brightness, 250));
});

/** The sliders of the page as Chromium's accessibility tree has them: name, and where the name came from. */
async function axSliders(): Promise<{ name: string; from: string }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    return nodes
      .filter((n) => n.role?.value === "slider" && !n.ignored)
      .map((n) => ({
        name: String(n.name?.value),
        from:
          n.name?.sources?.find((s) => s.value)?.attribute ?? n.name?.sources?.find((s) => s.value)?.nativeSource ?? "",
      }));
  } finally {
    await cdp.detach();
  }
}

test(
  "the sliders are named by their label alone; the value they show is their value text (issue 36)",
  { skip },
  async () => {
    const slider = page.getByRole("slider", { name: "Brightness", exact: true });
    await api(host, "PATCH", "/api/appearance", { brightness: 200 });
    await eventually(async () => assert.equal(await slider.getAttribute("aria-valuetext"), "78%"));
    await slider.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
    await eventually(async () => assert.equal(await slider.getAttribute("aria-valuetext"), "77%"));
    assert.equal(await slider.inputValue(), "196");
    await eventually(async () => assert.equal((await get("/api/appearance")).brightness, 196));
    // The name is the label's word, given as aria-label, not computed from the label's content (which
    // holds the percentage too: the accessible-name algorithm takes an <output>'s text into a
    // wrapping label's name, though Chromium leaves it out).
    assert.deepEqual(await axSliders(), [
      { name: "Brightness", from: "aria-label" },
      { name: "Speed", from: "aria-label" },
    ]);
    assert.equal(
      await page.getByRole("slider", { name: "Speed", exact: true }).getAttribute("aria-valuetext"),
      "1 times",
    );
    await api(host, "PATCH", "/api/appearance", { brightness: 250 });
  },
);

test("the three colour inputs set the base colours", { skip }, async () => {
  const want = ["#FF8000", "#0040C0", "#10A020"];
  const names = ["Primary colour", "Secondary colour", "Tertiary colour"];
  for (let i = 0; i < 3; i++) await page.getByLabel(names[i], { exact: true }).fill(want[i].toLowerCase());
  await eventually(async () => assert.deepEqual((await get("/api/appearance")).baseColors, want));
});

test("the Palette select sets the active palette", { skip }, async () => {
  const select = page.getByRole("combobox", { name: "Palette", exact: true });
  await select.selectOption("Ocean");
  await eventually(async () => assert.equal((await get("/api/appearance")).palette, "Ocean"));
  await select.selectOption("Base colors");
  await eventually(async () => assert.equal((await get("/api/appearance")).palette, "Base colors"));
});

test("changes made through the API show in the page (brightness, colour, palette, power)", { skip }, async () => {
  await api(host, "PATCH", "/api/appearance", { brightness: 77, baseColors: ["#FF8000", "#123456", "#10A020"] });
  await eventually(async () => assert.equal(await page.getByRole("slider", { name: "Brightness" }).inputValue(), "77"));
  await eventually(async () => assert.equal(await page.getByLabel("Secondary colour").inputValue(), "#123456"));
  await api(host, "PATCH", "/api/appearance", { palette: "Lava" });
  await eventually(async () =>
    assert.equal(await page.getByRole("combobox", { name: "Palette", exact: true }).inputValue(), "Lava"),
  );
  await api(host, "POST", "/api/state/power", { isOn: false });
  await eventually(async () => assert.equal(await page.getByRole("switch", { name: "Power" }).isChecked(), false));
  await api(host, "POST", "/api/state/power", { isOn: true });
  await eventually(async () => assert.equal(await page.getByRole("switch", { name: "Power" }).isChecked(), true));
  await api(host, "PATCH", "/api/appearance", { brightness: 200, palette: "Base colors" });
});

/** Fills the scene editor's form and saves; returns the new scene's id. */
async function saveScene(name: string, effect: string, color: string, colorFrom: string | null, duration: number) {
  await page.getByRole("button", { name: "New", exact: true }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("combobox", { name: "Effect", exact: true }).selectOption(effect);
  await page.getByLabel("Colour", { exact: true }).fill(color);
  if (colorFrom) await page.getByLabel("From colour").fill(colorFrom);
  await page.getByLabel("Duration (ms, 0 endless)").fill(String(duration));
  await page.getByRole("button", { name: "Save scene" }).click();
  let id = "";
  await eventually(async () => {
    const list = (await get("/api/scenes")) as { id: string; name: string }[];
    id = list.find((s) => s.name === name)?.id ?? "";
    assert.ok(id, `scene ${name} saved`);
  });
  return id;
}

test(
  "a SOLID scene made in the editor plays from its Play button; the preview matches GET /api/panels with brightness applied",
  { skip },
  async () => {
    const id = await saveScene("solid-orange", "SOLID", "#ff8000", null, 0);
    await page.getByRole("button", { name: "Play solid-orange" }).click();
    await eventually(async () => {
      const s = await get("/api/state");
      assert.equal(s.playing, true);
      assert.equal(s.lastPlayedSceneId, id);
    });
    const brightness = (await get("/api/appearance")).brightness as number;
    assert.equal(brightness, 200);
    await eventually(async () => {
      const panels = (await get("/api/panels")) as { address: number; color: string }[];
      assert.equal(panels.length, N);
      const shown = await previewColors();
      for (const p of panels) {
        assert.equal(p.color, "#FF8000");
        assert.equal(shown.get(p.address), withBrightness(p.color, brightness), `panel ${p.address}`);
      }
    });
    await page.getByText("solid-orange", { exact: true }).first().waitFor();
    await shot("solid");
  },
);

test("the Speed slider sets the playback speed", { skip }, async () => {
  const speed = page.getByRole("slider", { name: "Speed" });
  await speed.focus();
  await page.keyboard.press("End");
  await eventually(async () => assert.equal((await get("/api/state")).speed, 10));
  await page.keyboard.press("Home");
  await eventually(async () => assert.equal((await get("/api/state")).speed, 0.1));
  for (let i = 0; i < 100; i++) await page.keyboard.press("ArrowRight");
  await eventually(async () => assert.equal((await get("/api/state")).speed, 1));
});

test("a BREATHE scene: the preview's data-color changes over time", { skip }, async () => {
  await saveScene("breathe-blue", "BREATHE", "#4060ff", "#000020", 1500);
  await page.getByRole("button", { name: "Play breathe-blue" }).click();
  await eventually(async () => assert.equal((await get("/api/state")).playing, true));
  const seen = new Set<string>();
  await eventually(async () => {
    seen.add((await previewColors()).get(1)!);
    assert.ok(seen.size >= 4, `panel 1 showed ${[...seen].join(", ")}`);
  });
  await shot("breathe");
});

test("Stop stops the scene", { skip }, async () => {
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await eventually(async () => assert.equal((await get("/api/state")).playing, false));
  await page.getByText("Nothing is playing.").waitFor();
});

test(
  "Edit loads a scene into the editor; Duplicate copies it and Delete (confirmed) removes it",
  { skip },
  async () => {
    await page.getByRole("button", { name: "Edit solid-orange" }).click();
    await eventually(async () =>
      assert.equal(await page.getByLabel("Name", { exact: true }).inputValue(), "solid-orange"),
    );
    assert.match(await page.getByLabel("Scene JSON").inputValue(), /"type": "SOLID"/);
    const names = async () => ((await get("/api/scenes")) as { name: string }[]).map((s) => s.name);
    await page.getByRole("button", { name: "Duplicate solid-orange" }).click();
    await eventually(async () => assert.ok((await names()).includes("solid-orange copy")));
    await page.getByRole("button", { name: "Delete solid-orange copy" }).click();
    await page.getByRole("button", { name: "Yes, delete solid-orange copy" }).click();
    await eventually(async () => assert.ok(!(await names()).includes("solid-orange copy")));
    await page.getByRole("button", { name: "Play solid-orange copy" }).waitFor({ state: "detached" });
  },
);

test(
  "the editor shows a step's loop and the scene's loop apart, and saves what the form does not show unchanged (issue 36)",
  { skip },
  async () => {
    // the README's calm, breathing on: "loop": true on the step, none on the scene; and fields the form has no control for
    const scene = {
      schemaVersion: 2,
      name: "calm-loop",
      layers: [
        {
          group: "mood",
          sequence: [
            { type: "BREATHE", colorFrom: "#000020", colorTo: "#4060FF", duration: 300, loop: true, params: [3] },
          ],
        },
      ],
    };
    // typed into the editor's JSON and saved, as a user would paste it; then edited from the list
    await page.getByRole("button", { name: "New", exact: true }).click();
    await page.getByLabel("Scene JSON").fill(JSON.stringify(scene));
    await page.getByRole("button", { name: "Save scene" }).click();
    await page.getByRole("button", { name: "Edit calm-loop" }).click();
    const id = ((await get("/api/scenes")) as { id: string; name: string }[]).find((s) => s.name === "calm-loop")!.id;
    const stepLoop = page.getByRole("checkbox", { name: /^Loop the step/ });
    const sceneLoop = page.getByRole("checkbox", { name: /^Loop the scene/ });
    await eventually(async () => assert.equal(await stepLoop.isChecked(), true, "the step's loop is shown"));
    assert.equal(await sceneLoop.isChecked(), false, "the scene itself does not loop");
    const json = async () => JSON.parse(await page.getByLabel("Scene JSON").inputValue());
    await stepLoop.uncheck();
    assert.equal((await json()).layers[0].sequence[0].loop, undefined);
    await stepLoop.check();
    await page.getByLabel("Duration (ms, 0 endless)").fill("400");
    assert.deepEqual(await json(), {
      ...scene,
      layers: [{ group: "mood", sequence: [{ ...scene.layers[0].sequence[0], duration: 400 }] }],
    });
    await sceneLoop.check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await eventually(async () => {
      const stored = await get(`/api/scenes/${id}`);
      assert.equal(stored.loop, true);
      assert.deepEqual(stored.layers, [
        { group: "mood", sequence: [{ ...scene.layers[0].sequence[0], duration: 400 }] },
      ]);
    });
    // a runner has no step loop (its sweeps repeat with "repeat"): the box is not offered
    await page.getByRole("combobox", { name: "Effect", exact: true }).selectOption("WAVE");
    assert.equal(await stepLoop.count(), 0);
    assert.equal((await json()).layers[0].sequence[0].loop, undefined);
    assert.equal((await api(host, "DELETE", `/api/scenes/${id}`)).status, 200);
  },
);

test("the scene editor shows a 422 at the line and the field it names", { skip }, async () => {
  await page.getByRole("button", { name: "New", exact: true }).click();
  await page.getByLabel("Name", { exact: true }).fill("too-long");
  await page.getByLabel("Duration (ms, 0 endless)").fill("70000");
  let line = 0;
  await eventually(async () => {
    const text = await page.getByLabel("Scene JSON").inputValue(); // the form writes it
    line = text.split("\n").findIndex((l) => l.includes('"duration": 70000')) + 1;
    assert.ok(line > 0);
  });
  await page.getByRole("button", { name: "Save scene" }).click();
  const message = page.locator("#scene-json-err");
  await message.waitFor();
  const said = await message.textContent();
  assert.match(said ?? "", new RegExp(`^Line ${line}: layers\\[0\\]\\.sequence\\[0\\]\\.duration: `));
  assert.equal(await page.getByLabel("Scene JSON").getAttribute("aria-invalid"), "true");
  // The form's Duration field is marked too, and described by the message next to it.
  const duration = page.getByLabel("Duration (ms, 0 endless)");
  assert.equal(await duration.getAttribute("aria-invalid"), "true");
  const described = await duration.getAttribute("aria-describedby");
  assert.match((await page.locator(`#${described}`).textContent()) ?? "", /duration/);
  assert.equal(await page.locator(".gutter .bad").textContent(), String(line));
  await shot("scene-error");
  assert.ok(!((await get("/api/scenes")) as { name: string }[]).some((s) => s.name === "too-long"));
});

test("the effects gallery plays an effect on the controller; Stop holds the frame", { skip }, async () => {
  const primary = (await get("/api/appearance")).baseColors[0] as string;
  await page.getByRole("button", { name: "Solid", exact: true }).click();
  await eventually(async () => {
    for (const p of (await get("/api/panels")) as { color: string }[]) assert.equal(p.color, primary);
  });
  await page.getByRole("button", { name: "Wave", exact: true }).click();
  const seen = new Set<string>();
  await eventually(async () => {
    seen.add(((await get("/api/panels")) as { color: string }[]).map((p) => p.color).join());
    assert.ok(seen.size >= 3, "the wave moves over the panels");
  });
  // issue 18: stop stops the overlay too, holding the current frame: once the stop is on the bus
  // (animation start(0, 2), seen on the mirror stream) the colours no longer move, read after read,
  // while before it they changed from one poll to the next
  const mirror = await Client.connect(host.wsUrl);
  try {
    mirror.send(wsFrame(T.SET_MIRROR, [1]));
    await mirror.next(T.MIRROR_BATCH); // the snapshot
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    const isStop = (m: { type: number; body: Uint8Array }) => m.type === 13 && m.body[0] === 0 && m.body[1] === 2;
    while (!mirroredPackets(await mirror.next(T.MIRROR_BATCH, 5000)).some(isStop));
  } finally {
    mirror.close();
  }
  const frame = async () => ((await get("/api/panels")) as { color: string }[]).map((p) => p.color).join();
  const held = await frame();
  for (let i = 0; i < 5; i++) assert.equal(await frame(), held);
});

test("the trigger pad fires the playing scene's REACTIVE layer", { skip }, async () => {
  const scene = {
    schemaVersion: 2,
    name: "beat",
    layers: [
      {
        group: "beat",
        sequence: [{ type: "REACTIVE", colorFrom: "#000000", colorTo: "#00FF00", duration: 0, params: [0] }],
      },
    ],
  };
  const saved = await api(host, "POST", "/api/scenes", scene);
  assert.equal(saved.status, 200, saved.text);
  assert.equal((await api(host, "POST", `/api/scenes/${saved.body.id}/play`)).status, 202);
  const pad = page.getByRole("button", { name: "Trigger beat" });
  await pad.waitFor(); // the page learnt from the WebSocket what plays, and found its REACTIVE layer
  await page.getByRole("heading", { name: "Now playing" }).locator("..").getByText("beat").waitFor();
  await pad.click();
  await eventually(async () => {
    for (const p of (await get("/api/panels")) as { color: string }[]) assert.equal(p.color, "#00FF00");
  });
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await eventually(async () => assert.equal((await get("/api/state")).playing, false));
});

test("clicking a panel: set its colour, make it the logical root; Power on boot", { skip }, async () => {
  await page.locator('[data-address="3"]').click();
  await page.getByLabel("Panel colour").fill("#00ff80");
  await eventually(async () => {
    const p = ((await get("/api/panels")) as { address: number; color: string }[]).find((x) => x.address === 3);
    assert.equal(p?.color, "#00FF80");
  });
  await eventually(async () => assert.equal((await previewColors()).get(3), withBrightness("#00FF80", 200)));
  await page.getByRole("button", { name: "Make it the logical root" }).click();
  await eventually(async () => assert.equal((await get("/api/configuration")).logicalRoot, 3));
  await page.getByText("The logical root").waitFor();
  // The keyboard picks a panel too: Tab to it (a button), then Enter.
  await page.getByRole("button", { name: "Panel 5", exact: true }).focus();
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Panel 5" }).waitFor();
  await page.getByRole("combobox", { name: "Power on boot" }).selectOption({ label: "Always off" });
  await eventually(async () => assert.equal((await get("/api/configuration")).powerStateOnBoot, 1));
  await page.getByLabel(/^Logical root/).fill("0");
  await page.getByRole("button", { name: "Set root" }).click();
  await eventually(async () => assert.equal((await get("/api/configuration")).logicalRoot, 0));
});

test("the palette editor creates, updates and deletes a palette; built-ins are read-only", { skip }, async () => {
  const editPalette = page.getByRole("combobox", { name: "Edit palette" });
  await editPalette.selectOption({ label: "New palette" });
  await page.getByLabel("Palette name").fill("Dusk");
  await page.getByLabel("Stop 1 colour").fill("#200040");
  await page.getByLabel("Stop 2 colour").fill("#ffe080");
  await page.getByRole("button", { name: "Add stop" }).click();
  await page.getByRole("button", { name: "Create palette" }).click();
  await eventually(async () => {
    const r = await api(host, "GET", "/api/palettes/Dusk");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.stops, [
      [0, "#200040"],
      [127, "#FFE080"],
      [255, "#FFE080"],
    ]);
  });
  await page.getByLabel("Stop 2 colour").fill("#ff5030");
  await page.getByRole("button", { name: "Save palette" }).click();
  await eventually(async () => assert.deepEqual((await get("/api/palettes/Dusk")).stops[1], [127, "#FF5030"]));
  await page.getByRole("button", { name: "Delete palette" }).click();
  await eventually(async () => assert.equal((await api(host, "GET", "/api/palettes/Dusk")).status, 404));
  await editPalette.selectOption("Ocean");
  await eventually(async () => assert.equal(await page.getByLabel("Stop 1 colour").isDisabled(), true));
  assert.equal(await page.getByRole("button", { name: "Save palette" }).count(), 0);
  assert.equal(await page.getByRole("button", { name: "Delete palette" }).count(), 0);
});

test("MQTT settings are saved, and a refusal is shown next to the field it concerns", { skip }, async () => {
  await page.getByLabel("Broker host").fill("127.0.0.1");
  await page.getByLabel("Broker port").fill("1");
  await page.getByRole("button", { name: "Save MQTT settings" }).click();
  await eventually(async () => {
    const m = await get("/api/mqtt");
    assert.equal(m.broker, "127.0.0.1");
    assert.equal(m.port, 1);
    assert.equal(m.enabled, false);
  });
  await page.getByLabel("Broker host").fill("");
  await page.getByLabel("MQTT enabled").check();
  await page.getByRole("combobox", { name: "Broker discovery" }).selectOption({ index: 0 });
  await page.getByRole("button", { name: "Save MQTT settings" }).click();
  await eventually(async () => assert.equal(await page.getByLabel("Broker host").getAttribute("aria-invalid"), "true"));
  assert.match((await page.locator("#mqtt-err").textContent()) ?? "", /broker/i);
  assert.equal((await get("/api/mqtt")).enabled, false, "the refused change left the settings as they were");
  await page
    .getByRole("heading", { name: "Settings", exact: true })
    .locator("..")
    .screenshot({ path: path.join(OUT, `web-${HOST_NAME}-settings.png`), style: "header { position: static }" });
});

/** Chooses `bytes` as the panel firmware file and presses "Upload and flash". */
async function flashFrom(p: Page, bytes: Buffer): Promise<void> {
  await p
    .getByLabel("Panel firmware image (.fw)")
    .setInputFiles({ name: "panel.fw", mimeType: "application/octet-stream", buffer: bytes });
  await p.getByRole("button", { name: "Upload and flash" }).click();
}

test(
  "panel firmware: 422 and 409 in words; an upload with its progress flashes every panel, which then run it",
  { skip },
  async () => {
    const form = page.getByRole("form", { name: "Panel firmware" });
    const state = form.locator("#fw-state");
    const text = async () => (await state.textContent()) ?? "";
    await eventually(async () =>
      assert.match(await text(), new RegExp(`The panels run firmware version ${FACTORY_VERSION}\\.`)),
    );
    // a bad image: the controller's reason
    const bad = panelImage(7);
    bad[0] ^= 0xff;
    await flashFrom(page, bad);
    await eventually(async () =>
      assert.equal(await form.getByRole("alert").textContent(), "The controller refused the image: bad magic."),
    );
    // a flash another client started (panels reporting 8): the page's upload is refused, then followed
    assert.equal((await api(host, "POST", "/api/firmware/panels", panelImage(8, 30000))).status, 200);
    await flashFrom(page, panelImage(7));
    await eventually(async () =>
      assert.equal(await form.getByRole("alert").textContent(), "A flash is already in progress: wait for it to end."),
    );
    await eventually(async () => assert.match(await text(), /^(Connecting to|Flashing|Verifying) panel \d+ of 12/));
    await eventually(async () => assert.match(await text(), /^Done: 12 panels flashed/), 60000);
    await eventually(async () => assert.match(await text(), /The panels run firmware version 8\.$/), 10000);
    // the page's own upload (~40 KB, a panel.wasm reporting 7): its progress, the flash, the new version
    await flashFrom(page, panelImage(7, 32000));
    await eventually(async () =>
      assert.equal(await form.getByRole("progressbar", { name: "Upload progress" }).getAttribute("value"), "100"),
    );
    // progress reaches 100 when the bytes are out; the page clears the refusal when the answer is in
    await eventually(async () =>
      assert.equal(await form.getByRole("alert").isHidden(), true, "the earlier refusal is gone"),
    );
    await eventually(async () => assert.match(await text(), /^(Connecting to|Flashing|Verifying) panel \d+ of 12/));
    await eventually(async () => assert.match(await text(), /^Done: 12 panels flashed/), 60000);
    await eventually(async () => assert.match(await text(), /The panels run firmware version 7\.$/), 10000);
    assert.deepEqual((await get("/api/firmware/status")).firmware, [7, 7]);
    await form.screenshot({
      path: path.join(OUT, `web-${HOST_NAME}-firmware.png`),
      style: "header { position: static }",
    });
  },
);

test("panel firmware: a full store (507) is shown in words", { skip }, async () => {
  const full = await startHost({ panels: 2, extraArgs: ["--store-limit", "4096"] });
  const other = await browser.newPage();
  try {
    await other.goto(full.url + "/");
    await flashFrom(other, panelImage(7));
    const form = other.getByRole("form", { name: "Panel firmware" });
    await eventually(async () =>
      assert.equal(
        await form.getByRole("alert").textContent(),
        "The controller's storage is full (filesystem write failed): the image was not stored.",
      ),
    );
    assert.equal((await api(full, "GET", "/api/firmware/status")).body.state, "idle");
  } finally {
    await other.close();
    await full.stop();
  }
});

test("the page works at 375 px: nothing wider than the screen, every main control reachable", { skip }, async () => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await page.getByText("Live", { exact: true }).waitFor();
  await page.getByRole("slider", { name: "Brightness" }).waitFor();
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 375, "no horizontal scrolling");
  const controls = [
    page.getByRole("switch", { name: "Power" }),
    page.getByRole("region", { name: "Live preview" }),
    page.getByRole("slider", { name: "Brightness" }),
    page.getByLabel("Primary colour"),
    page.getByRole("combobox", { name: "Palette", exact: true }),
    page.getByRole("button", { name: "Stop", exact: true }),
    page.getByRole("slider", { name: "Speed" }),
    page.getByRole("button", { name: "Play solid-orange" }),
  ];
  for (const c of controls) {
    await c.scrollIntoViewIfNeeded();
    const box = (await c.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 375, `inside the screen: ${c}`);
  }
  await page.getByRole("button", { name: "Play solid-orange" }).click();
  await eventually(async () => assert.equal((await get("/api/state")).playing, true));
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot("phone", true);
});

test(
  "on a phone (390x844) the preview stays in view when Play is pressed far down the page (issue 36)",
  { skip },
  async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByText("Live", { exact: true }).waitFor();
    const play = page.getByRole("button", { name: "Play solid-orange", exact: true });
    await play.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    assert.ok(scrolled > 844, `the scene list is more than a screen down (scrolled ${scrolled} px)`);
    const playBox = (await play.boundingBox())!;
    await play.click();
    await eventually(async () => assert.equal((await get("/api/state")).playing, true));
    const preview = page.getByRole("region", { name: "Live preview" });
    const box = (await preview.boundingBox())!;
    assert.ok(box.y >= 0 && box.y + box.height <= 844, `the preview is within the screen: ${JSON.stringify(box)}`);
    assert.ok(box.y + box.height <= playBox.y, "and above the button pressed, not over it");
    // on top, not hidden under the cards scrolled beneath it: what is drawn at its panels is the preview
    const on = await page.evaluate(() => {
      const svg = document.querySelector(".preview svg")!.getBoundingClientRect();
      const at = document.elementFromPoint(svg.x + svg.width / 2, svg.y + svg.height / 2);
      return !!at?.closest(".preview");
    });
    assert.ok(on, "the preview is drawn on top");
    const brightness = (await get("/api/appearance")).brightness as number;
    const lit = withBrightness("#FF8000", brightness);
    await eventually(async () => assert.ok([...(await previewColors()).values()].every((c) => c === lit)));
    await shot("phone-playing");
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await eventually(async () => assert.equal((await get("/api/state")).playing, false));
  },
);

/** WCAG's relative luminance of a computed `rgb(r, g, b)` colour, and the contrast ratio of two. */
function luminance(css: string): number {
  const [r, g, b] = css
    .match(/[\d.]+/g)!
    .slice(0, 3)
    .map((v) => Number(v) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test(
  "a light theme follows prefers-color-scheme, and its text is as readable as the dark one's (issue 36)",
  { skip },
  async () => {
    const themes: Record<string, Record<string, string>> = {};
    // the colours each kind of text is drawn in, and on ([name, selector, property])
    const wanted: [string, string, "color" | "backgroundColor"][] = [
      ["page", "html", "backgroundColor"],
      ["text", "html", "color"],
      ["card", ".card", "backgroundColor"],
      ["muted", ".muted", "color"],
      ["link", "footer a", "color"],
      ["button", "button:not(.primary)", "backgroundColor"],
      ["buttonText", "button:not(.primary)", "color"],
      ["primary", "button.primary", "backgroundColor"],
      ["primaryText", "button.primary", "color"],
      ["field", "select", "backgroundColor"],
      ["fieldText", "select", "color"],
      ["live", ".link", "color"],
    ];
    try {
      for (const colorScheme of ["dark", "light"] as const) {
        await page.emulateMedia({ colorScheme }); // what the system asks for, as playwright emulates it
        themes[colorScheme] = await page.evaluate(
          (w) =>
            Object.fromEntries([
              ...w.map(([k, sel, prop]) => [k, getComputedStyle(document.querySelector(sel)!)[prop]]),
              ["scheme", getComputedStyle(document.documentElement).colorScheme],
            ]),
          wanted,
        );
      }
    } finally {
      await page.emulateMedia({ colorScheme: null });
    }
    const { dark, light } = themes;
    assert.equal(dark.scheme, "dark");
    assert.equal(light.scheme, "light", "the form controls are drawn light too");
    assert.ok(luminance(dark.page) < 0.05, `dark page ${dark.page}`);
    assert.ok(luminance(light.page) > 0.8, `light page ${light.page}`);
    assert.notEqual(light.card, dark.card);
    for (const [name, t] of Object.entries(themes)) {
      const pairs: [string, string, string][] = [
        ["text on the page", t.text, t.page],
        ["text on a card", t.text, t.card],
        ["muted text on a card", t.muted, t.card],
        ["a link on the page", t.link, t.page],
        ["a button", t.buttonText, t.button],
        ["a primary button", t.primaryText, t.primary],
        ["a field", t.fieldText, t.field],
        ["the link state", t.live, t.page],
      ];
      for (const [what, fg, bg] of pairs)
        assert.ok(contrast(fg, bg) >= 4.5, `${name}: ${what} ${fg} on ${bg} is ${contrast(fg, bg).toFixed(2)}:1`);
    }
  },
);

test(
  "the web app manifest and its icons are served, and Chromium finds the page installable (issue 36)",
  { skip },
  async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    assert.equal(href, "/manifest.webmanifest");
    const res = await fetch(host.url + href, { signal: AbortSignal.timeout(5000) });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/manifest+json");
    assert.equal(res.headers.get("cache-control"), "no-cache", "revalidated, like /");
    const text = await res.text();
    assert.ok(!/https?:\/\//.test(text), "nothing from the internet");
    const m = JSON.parse(text);
    assert.equal(m.start_url, "/");
    assert.equal(m.display, "standalone");
    assert.equal(m.name, "Tessera");
    const kinds: string[] = [];
    for (const icon of m.icons as { src: string; sizes: string; type: string }[]) {
      const r = await fetch(host.url + icon.src, { signal: AbortSignal.timeout(5000) });
      assert.equal(r.status, 200, icon.src);
      assert.equal(r.headers.get("content-type"), icon.type, icon.src);
      const bytes = Buffer.from(await r.arrayBuffer());
      if (icon.type === "image/png") {
        assert.equal(bytes.toString("latin1", 1, 4), "PNG", icon.src);
        const [w, h] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
        assert.equal(`${w}x${h}`, icon.sizes, icon.src);
      } else assert.match(bytes.toString(), /^<svg /, icon.src);
      kinds.push(icon.type);
    }
    assert.deepEqual(kinds.sort(), ["image/png", "image/png", "image/svg+xml"]);
    // Chromium's own verdict (a profile on disk: an incognito page is never installable)
    const context = await chromium.launchPersistentContext(tempDir("tessera-chromium-"), { executablePath: CHROMIUM });
    try {
      const p = context.pages()[0] ?? (await context.newPage());
      await p.goto(host.url + "/");
      await p.getByText("Live", { exact: true }).waitFor();
      const cdp = await context.newCDPSession(p);
      const manifest = await cdp.send("Page.getAppManifest", {});
      assert.deepEqual(manifest.errors, []);
      assert.deepEqual((await cdp.send("Page.getInstallabilityErrors")).installabilityErrors, []);
    } finally {
      await context.close();
    }
  },
);

test("no script error all along; the only console errors are the refusals the steps asked for", { skip }, async () => {
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(frameErrors, [], "every frame the page received is well formed");
  for (const e of consoleErrors) assert.match(e, /status of (422|409)/, e);
});

test(
  "the page reconnects by itself when the controller comes back, and the preview follows it again",
  { skip },
  async () => {
    await host.stop();
    await page.getByText("Reconnecting…").waitFor();
    host = await startHost({ panels: N, dataDir: host.dataDir, extraArgs: ["--port", String(port)] });
    await page.getByText("Live", { exact: true }).waitFor({ timeout: 15000 });
    await api(host, "POST", "/api/state/power", { isOn: true }); // powerStateOnBoot is "Always off" now
    await api(host, "POST", "/api/animations/play", { group: 9, type: "SOLID", color: "#2040FF", duration: 0 });
    const brightness = (await get("/api/appearance")).brightness as number;
    await eventually(async () => {
      const shown = await previewColors();
      for (let a = 1; a <= N; a++) assert.equal(shown.get(a), withBrightness("#2040FF", brightness), `panel ${a}`);
    });
    assert.deepEqual(pageErrors, []);
  },
);
