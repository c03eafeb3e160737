// Helpers for playback tests against a host started with --manual-clock: advance its virtual
// clock (POST /__test__/clock) and read the panels' colours by index.
import assert from "node:assert/strict";
import { api, type Host } from "./host.js";

/** Moves the host's clock (core and panels) forward by `ms`, ticking as it goes. */
export async function advance(host: Host, ms: number): Promise<void> {
  const res = await api(host, "POST", "/__test__/clock", { advance: ms });
  assert.equal(res.status, 200, res.text);
}

/** Colour of each panel by index ("#RRGGBB"), from GET /api/panels. */
export async function colors(host: Host): Promise<Record<number, string>> {
  const res = await api(host, "GET", "/api/panels");
  assert.equal(res.status, 200, res.text);
  const out: Record<number, string> = {};
  for (const p of res.body as Array<{ address: number; color: string }>) out[p.address] = p.color;
  return out;
}

/** Indices of the panels showing `color`, ascending. */
export async function showing(host: Host, color: string): Promise<number[]> {
  const c = await colors(host);
  return Object.keys(c)
    .map(Number)
    .filter((i) => c[i] === color)
    .sort((a, b) => a - b);
}

/** Plays `scene` as a one-shot; asserts 202. */
export async function oneShot(host: Host, scene: unknown): Promise<void> {
  const res = await api(host, "POST", "/api/scenes/play/one-shot", scene);
  assert.equal(res.status, 202, res.text);
}

/** Clears every panel to black, as a scene start does (a one-shot of one gap step): since a stop
 * holds the frame (issue 18), tests that need black panels afterwards use this. */
export async function clearPanels(host: Host): Promise<void> {
  await oneShot(host, { schemaVersion: 2, layers: [{ group: 1, sequence: [{ duration: 1 }] }] });
  await advance(host, 0); // applied on this tick
}

/** A scene's own clock on `host`: `play` starts a one-shot scene (applied on the next tick, at scene
 * time 0), `started` does the same for a scene another request started, and `at(t)` advances to
 * absolute scene time `t` (ms since the play request) and returns the panels' colours. */
export function sceneClock(host: Host) {
  let clock = 0;
  const started = async (): Promise<void> => {
    await advance(host, 0);
    clock = 0;
  };
  return {
    started,
    async play(scene: object): Promise<void> {
      await oneShot(host, scene);
      await started();
    },
    async at(t: number): Promise<Record<number, string>> {
      assert.ok(t >= clock, `time goes forward (${clock} → ${t})`);
      await advance(host, t - clock);
      clock = t;
      return colors(host);
    },
  };
}
