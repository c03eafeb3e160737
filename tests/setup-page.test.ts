// The captive portal's setup page (web/setup.html) in a real browser (Debian's chromium through
// playwright-core) against a real host: MQTT shown only where there is MQTT, prefilled with the
// current settings (never the password), only what changed sent, errors shown at their field, and
// "saved" only for what was saved. Without chromium it is skipped, except in CI (CI=true).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { startHost, api, waitFor, type Host } from "./helpers/host.js";

const CHROMIUM = [process.env.TESSERA_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p) => p && fs.existsSync(p),
);
const skip = CHROMIUM ? false : "chromium not found (apt-get install chromium; .ci/run installs it)";
if (!CHROMIUM && process.env.CI === "true") throw new Error("CI=true: the browser tests need chromium");

let browser: Browser;
before(async () => {
  if (!skip) browser = await chromium.launch({ executablePath: CHROMIUM });
});
after(async () => browser?.close());

/** Opens /setup of `host` once its MQTT settings were read; records what the page posts. */
async function open(host: Host) {
  const page = await browser.newPage();
  page.setDefaultTimeout(10000);
  const posted: unknown[] = [];
  page.on("request", (r) => r.url().endsWith("/api/setup") && posted.push(JSON.parse(r.postData() ?? "null")));
  const settings = page.waitForResponse((r) => r.url().endsWith("/api/mqtt"));
  await page.goto(`${host.url}/setup`);
  await settings;
  return { page, posted };
}

test("large variant: prefilled, only changes sent, errors at the field", { skip }, async () => {
  const host = await startHost({ panels: 1 });
  try {
    const mqtt = { enabled: false, brokerDiscovery: 0, broker: "10.0.0.9", port: 1999, username: "ha", password: "pw" };
    assert.equal((await api(host, "PATCH", "/api/mqtt", mqtt)).status, 200);
    const { page, posted } = await open(host);
    assert.equal(await page.isVisible("fieldset#m"), true);
    assert.equal(await page.inputValue("[name=broker]"), "10.0.0.9");
    assert.equal(await page.inputValue("[name=port]"), "1999");
    assert.equal(await page.inputValue("[name=username]"), "ha");
    assert.equal(await page.inputValue("[name=brokerDiscovery]"), "0");
    assert.equal(await page.inputValue("[name=mqttPassword]"), "", "never the password");

    // Wi-Fi only: the MQTT settings are not sent, so nothing there is wiped.
    await page.fill("[name=ssid]", "home-net");
    await page.click("button");
    await page.waitForFunction(() => document.querySelector("output")!.textContent!.startsWith("Saved"));
    assert.equal(await page.textContent("output"), "Saved: Wi-Fi; connecting");
    assert.deepEqual(posted.at(-1), { ssid: "home-net", password: "" });
    const kept = (await api(host, "GET", "/api/mqtt")).body;
    assert.deepEqual([kept.broker, kept.port, kept.username], ["10.0.0.9", 1999, "ha"]);
    await waitFor(() => /wifi: .*home-net/.test(host.output()), 2000);

    // An error shows at its field and nothing is saved.
    await page.check("[name=enabled]");
    await page.fill("[name=broker]", "");
    await page.click("button");
    await page.waitForSelector("small");
    assert.equal(await page.textContent("output"), "Not saved");
    assert.equal(
      await page.evaluate(() => (document.querySelector("small")!.previousElementSibling as HTMLInputElement).name),
      "broker",
    );
    assert.equal(await page.textContent("small"), " required with manual discovery");
    assert.deepEqual(posted.at(-1), { ssid: "home-net", password: "", mqtt: { enabled: true, broker: "" } });
    assert.equal((await api(host, "GET", "/api/mqtt")).body.broker, "10.0.0.9");

    // Only the changes are sent, and said to be saved.
    await page.uncheck("[name=enabled]");
    await page.fill("[name=broker]", "10.0.0.10");
    await page.click("button");
    await page.waitForFunction(() => document.querySelector("output")!.textContent!.startsWith("Saved"));
    assert.equal(await page.textContent("output"), "Saved: Wi-Fi and MQTT; connecting");
    assert.equal(await page.locator("small").count(), 0, "the old error is gone");
    assert.deepEqual(posted.at(-1), { ssid: "home-net", password: "", mqtt: { broker: "10.0.0.10" } });
    assert.equal((await api(host, "GET", "/api/mqtt")).body.broker, "10.0.0.10");
  } finally {
    await host.stop();
  }
});

test("small variant: no MQTT part shown or sent", { skip }, async () => {
  const host = await startHost({ panels: 1, variant: "small" });
  try {
    const { page, posted } = await open(host);
    assert.equal(await page.isVisible("fieldset#m"), false);
    await page.fill("[name=ssid]", "home-net");
    await page.click("button");
    await page.waitForFunction(() => document.querySelector("output")!.textContent!.startsWith("Saved"));
    assert.deepEqual(posted.at(-1), { ssid: "home-net", password: "" });
  } finally {
    await host.stop();
  }
});
