// The everyday controls: the look (brightness, base colours, palette), what is playing (stop,
// speed, replay), the scene library, the one-click effects and the trigger pad.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, enc, type Appearance, type Palette, type SceneItem } from "./api.js";
import type { AppState } from "./link.js";
import { Err, hexIn, hexOut, Slider, useAction, useLatest } from "./ui.js";

export const COLOR_NAMES = ["Primary colour", "Secondary colour", "Tertiary colour"];

export function Look(props: { look: Appearance | null; palettes: Palette[]; edit(p: Partial<Appearance>): void }) {
  const { look } = props;
  const [err, run] = useAction();
  const send = useLatest((p: Partial<Appearance>) => api("PATCH", "/api/appearance", p), run);
  const change = (p: Partial<Appearance>) => {
    props.edit(p);
    send(p);
  };
  if (!look) return null;
  const names = props.palettes.map((p) => p.name);
  if (!names.includes(look.palette)) names.unshift(look.palette);
  return (
    <section class="card" aria-labelledby="look-h">
      <h2 id="look-h">Look</h2>
      <Slider
        label="Brightness"
        min={0}
        max={255}
        value={look.brightness}
        shown={`${Math.round((look.brightness / 255) * 100)}%`}
        onInput={(brightness) => change({ brightness })}
      />
      <div class="colors">
        {COLOR_NAMES.map((name, i) => (
          <label key={name} class="swatch">
            <input
              type="color"
              value={hexIn(look.baseColors[i])}
              onInput={(e) => {
                const baseColors = [...look.baseColors] as Appearance["baseColors"];
                baseColors[i] = hexOut(e.currentTarget.value);
                change({ baseColors });
              }}
            />
            <span>{name}</span>
          </label>
        ))}
      </div>
      <label class="field">
        <span>Palette</span>
        <select value={look.palette} onChange={(e) => change({ palette: e.currentTarget.value })}>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <Err msg={err} />
    </section>
  );
}

/** Stops the scene and the gallery's effect: a scene stop stops every group, holding the current
 * frame (issue 18; before, a black one-flash spawner replaced the effect, which blinked a panel). */
async function stopAll() {
  await api("POST", "/api/scenes/stop");
}

/** Slider position (-1..1) and speed (0.1..10) on a log scale, so 1.0 sits in the middle. */
const toSpeed = (v: number) => Math.round(10 ** v * 100) / 100;
const fromSpeed = (s: number) => Math.log10(Math.min(10, Math.max(0.1, s || 1)));

export function Playing(props: {
  app: AppState | null;
  scenes: SceneItem[];
  setSpeed(s: number): void;
  onStop(): void;
}) {
  const { app } = props;
  const [err, run] = useAction();
  const sendSpeed = useLatest((speed: number) => api("POST", "/api/scenes/speed", { speed }), run);
  const last = props.scenes.find((s) => s.id === app?.lastPlayedSceneId);
  const lastName = last?.name ?? (app?.lastPlayedSceneId ? "a one-off scene" : "");
  const speed = app?.speed ?? 1;
  // The slider's own position: a speed rounded to 0.01 maps back to a slightly different one.
  // APP_STATE of speeds sent while the slider still moves are not put back on it.
  const [pos, setPos] = useState(fromSpeed(speed));
  const moved = useRef(-Infinity);
  useEffect(() => {
    if (toSpeed(pos) !== speed && performance.now() - moved.current > 1500) setPos(fromSpeed(speed));
  }, [speed]);
  return (
    <section class="card" aria-labelledby="now-h">
      <h2 id="now-h">Now playing</h2>
      <p class="now" aria-live="polite">
        {app?.playing ? <strong>{lastName || "a scene"}</strong> : <span class="muted">Nothing is playing.</span>}
      </p>
      <div class="row">
        <button onClick={() => run(stopAll).then(props.onStop)}>Stop</button>
        {!app?.playing && lastName && (
          <button onClick={() => run(() => api("POST", "/api/scenes/play"))}>Replay {lastName}</button>
        )}
      </div>
      <Slider
        label="Speed"
        min={-1}
        max={1}
        step={0.01}
        value={pos}
        shown={`${speed.toFixed(2)}×`}
        spoken={`${speed} times`}
        onInput={(v) => {
          moved.current = performance.now();
          setPos(v);
          const s = toSpeed(v);
          props.setSpeed(s);
          sendSpeed(s);
        }}
      />
      <Err msg={err} />
    </section>
  );
}

export function Library(props: {
  scenes: SceneItem[];
  app: AppState | null;
  reload(): Promise<unknown>;
  edit(id: string): void;
}) {
  return (
    <section class="card" aria-labelledby="lib-h">
      <h2 id="lib-h">Scenes</h2>
      {props.scenes.length === 0 && <p class="muted">No scenes yet: make one in the scene editor below.</p>}
      <ul class="list">
        {props.scenes.map((s) => (
          <SceneRow
            key={s.id}
            scene={s}
            playing={!!props.app?.playing && props.app.lastPlayedSceneId === s.id}
            reload={props.reload}
            edit={props.edit}
          />
        ))}
      </ul>
    </section>
  );
}

function seconds(ms: number): string {
  return ms === 0 ? "endless" : `${Math.round(ms / 100) / 10} s`;
}

function SceneRow(props: { scene: SceneItem; playing: boolean; reload(): Promise<unknown>; edit(id: string): void }) {
  const { scene: s } = props;
  const [err, run] = useAction();
  const [confirm, setConfirm] = useState(false);
  const duplicate = () =>
    run(async () => {
      const doc = await api<Record<string, unknown>>("GET", `/api/scenes/${s.id}`);
      delete doc.id;
      doc.name = `${s.name} copy`.slice(0, 64);
      await api("POST", "/api/scenes", doc);
      await props.reload();
    });
  return (
    <li class={props.playing ? "on" : ""}>
      <div class="grow">
        <span class="name">{s.name}</span>
        <span class="muted small">
          {" "}
          {s.layerCount} {s.layerCount === 1 ? "layer" : "layers"}, {seconds(s.duration)}
          {props.playing && " · playing"}
        </span>
      </div>
      {confirm ? (
        <>
          <button
            class="danger"
            onClick={() => run(() => api("DELETE", `/api/scenes/${s.id}`).then(props.reload))}
            aria-label={`Yes, delete ${s.name}`}
          >
            Yes, delete
          </button>
          <button onClick={() => setConfirm(false)}>Keep</button>
        </>
      ) : (
        <>
          <button
            class="primary"
            aria-label={`Play ${s.name}`}
            onClick={() => run(() => api("POST", `/api/scenes/${s.id}/play`))}
          >
            Play
          </button>
          <button aria-label={`Edit ${s.name}`} onClick={() => props.edit(s.id)}>
            Edit
          </button>
          <button aria-label={`Duplicate ${s.name}`} onClick={duplicate}>
            Copy
          </button>
          <button aria-label={`Delete ${s.name}`} onClick={() => setConfirm(true)}>
            Delete
          </button>
        </>
      )}
      <Err msg={err} />
    </li>
  );
}

/** The gallery's group: above every scene layer, and not a group a scene of names uses (1-8). */
export const EFFECT_GROUP = 200;

type Step = Record<string, unknown>;
const EFFECTS: [string, (c: string[]) => Step][] = [
  ["Wave", (c) => ({ runner: "WAVE", color: c[0], duration: 2000, repeat: true })],
  ["Ripple", (c) => ({ runner: "RIPPLE", color: c[0], duration: 2500, repeat: true })],
  ["Chase", (c) => ({ runner: "CHASE", color: c[0], duration: 1500, repeat: true })],
  ["Bounce", (c) => ({ runner: "BOUNCE", color: c[0], duration: 2000 })],
  ["Wheel", (c) => ({ runner: "WHEEL", color: c[0], duration: 3000, lines: 2, thickness: 40 })],
  ["Rain", (c) => ({ runner: "RAIN", color: c[0], colorFrom: "#000000", duration: 0, waves: 4, width: 2 })],
  ["Sparkle", (c) => ({ runner: "SPARKLE", color: c[0], duration: 0, waves: 10, width: 120 })],
  ["Matrix", (c) => ({ runner: "MATRIX", color: "#20FF40", duration: 0, waves: 4, width: 3 })],
  ["Breathe", (c) => ({ type: "BREATHE", colorFrom: c[1], colorTo: c[0], duration: 4000 })],
  [
    "Pulse",
    (c) => ({ type: "PULSE", colorFrom: "#000000", colorTo: c[0], duration: 1000, loop: true, params: [60, 160] }),
  ],
  ["Strobe", (c) => ({ type: "STROBE", color: c[0], duration: 0, params: [8] })],
  ["Blink", (c) => ({ type: "BLINK", colorFrom: c[1], colorTo: c[0], duration: 0, params: [250] })],
  ["Hue cycle", () => ({ type: "HUE_CYCLE", duration: 6000, loop: true })],
  ["Solid", (c) => ({ type: "SOLID", color: c[0], duration: 0 })],
  ["Flash on tap", (c) => ({ type: "REACTIVE", colorFrom: "#000000", colorTo: c[0], duration: 0, params: [160] })],
];

export function Effects(props: { look: Appearance | null; onReactive(on: boolean): void }) {
  const [err, run] = useAction();
  const colors = props.look?.baseColors ?? ["#FFFFFF", "#000000", "#000000"];
  return (
    <section class="card" aria-labelledby="fx-h">
      <h2 id="fx-h">Effects</h2>
      <p class="muted small">
        One click plays an effect over everything (in your base colours); Stop holds it where it is.
      </p>
      <div class="grid">
        {EFFECTS.map(([name, step]) => (
          <button
            key={name}
            onClick={() =>
              run(async () => {
                await api("POST", "/api/animations/play", { group: EFFECT_GROUP, ...step(colors) });
                props.onReactive(name === "Flash on tap");
              })
            }
          >
            {name}
          </button>
        ))}
      </div>
      <Err msg={err} />
    </section>
  );
}

interface Layer {
  group: string | number;
  sequence: { type?: string }[];
}

/** Buttons for every REACTIVE layer of the playing scene (and the gallery's tap effect). */
export function Triggers(props: { app: AppState | null; effect: boolean }) {
  const [err, run] = useAction();
  const [groups, setGroups] = useState<(string | number)[]>([]);
  const [level, setLevel] = useState(255);
  const id = props.app?.playing ? props.app.lastPlayedSceneId : "";
  useEffect(() => {
    setGroups([]);
    if (!id) return;
    api<{ layers: Layer[] }>("GET", `/api/scenes/${enc(id)}`)
      .then((doc) =>
        setGroups(doc.layers.filter((l) => l.sequence.some((s) => s.type === "REACTIVE")).map((l) => l.group)),
      )
      .catch(() => setGroups([]));
  }, [id]);
  const all = props.effect ? [...groups, EFFECT_GROUP] : groups;
  if (all.length === 0) return null;
  return (
    <section class="card" aria-labelledby="pad-h">
      <h2 id="pad-h">Trigger pad</h2>
      <div class="grid pad">
        {all.map((g) => (
          <button
            key={g}
            class="hit"
            onClick={() => run(() => api("POST", "/api/animations/trigger", { group: g, value: level }))}
          >
            Trigger {g === EFFECT_GROUP && !groups.includes(g) ? "tap effect" : g}
          </button>
        ))}
      </div>
      <Slider label="Trigger level" min={1} max={255} value={level} shown={String(level)} onInput={setLevel} />
      <Err msg={err} />
    </section>
  );
}
