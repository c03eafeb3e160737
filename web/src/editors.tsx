// The scene editor (a form for one-layer scenes, and the JSON of any scene, with the controller's
// 422 message shown at the line and field it names) and the palette editor.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, ApiError, enc, type Palette } from "./api.js";
import { locate, splitPath } from "./jsonpath.js";
import { Err, hexIn, hexOut, useAction, useId } from "./ui.js";
// the step types of the one table (its wire codes are the core's business)
import { types as kindTypes } from "../../assembly/animation-kinds.json";

const TYPES = kindTypes.map((t) => t.name);
const RUNNERS = ["WAVE", "RIPPLE", "CHASE", "BOUNCE", "WHEEL", "RAIN", "SPARKLE", "MATRIX"];
const USES_FROM = new Set(["FADE", "BREATHE", "PULSE", "BLINK", "REACTIVE", "RAIN", "MATRIX"]);

interface Form {
  name: string;
  effect: string;
  color: string;
  colorFrom: string;
  duration: number;
  /** the scene's `loop`: the whole scene restarts when it ends */
  loop: boolean;
  /** the step's `loop` (panel-local effects): the effect repeats for as long as the step lasts */
  stepLoop: boolean;
}
const BLANK: Form = {
  name: "",
  effect: "BREATHE",
  color: "#4060FF",
  colorFrom: "#000020",
  duration: 4000,
  loop: true,
  stepLoop: false,
};

type Layer = Record<string, unknown> & { sequence?: Record<string, unknown>[] };
type Doc = Record<string, unknown> & { layers?: Layer[] };

function formToDoc(f: Form): Doc {
  const runner = RUNNERS.includes(f.effect);
  const step: Record<string, unknown> = runner ? { runner: f.effect } : { type: f.effect };
  if (USES_FROM.has(f.effect)) step.colorFrom = hexOut(f.colorFrom);
  if (f.effect !== "HUE_CYCLE") step.color = hexOut(f.color);
  step.duration = f.duration;
  if (["WAVE", "RIPPLE", "CHASE"].includes(f.effect)) step.repeat = true;
  if (f.stepLoop && !runner) step.loop = true;
  const doc: Doc = { schemaVersion: 8, name: f.name, loop: f.loop, layers: [{ group: 1, sequence: [step] }] };
  return doc;
}

/** `doc` with the form's change `p` made. A new effect starts the step afresh from the form; any other
 * change writes its own field only, so what the form does not show (params, the group, a palette
 * colour reference, ...) stays as stored. */
function edited(doc: Doc, f: Form, p: Partial<Form>): Doc {
  const layer = doc.layers![0];
  if (p.effect !== undefined) {
    const fresh = formToDoc(f);
    const step = fresh.layers![0].sequence![0];
    return {
      ...fresh,
      ...doc,
      name: f.name,
      loop: f.loop,
      layers: [{ ...fresh.layers![0], ...layer, sequence: [step] }],
    };
  }
  const step = { ...layer.sequence![0] };
  const out: Doc = { ...doc, layers: [{ ...layer, sequence: [step] }] };
  if (p.name !== undefined) out.name = f.name;
  if (p.loop !== undefined) out.loop = f.loop;
  if (p.color !== undefined) step["colorTo" in step ? "colorTo" : "color"] = hexOut(f.color);
  if (p.colorFrom !== undefined) step.colorFrom = hexOut(f.colorFrom);
  if (p.duration !== undefined) step.duration = f.duration;
  if (p.stepLoop === true) step.loop = true;
  if (p.stepLoop === false) delete step.loop;
  return out;
}

/** The form's view of a document, when it is one layer of one step the form can show. */
function docToForm(doc: Doc): Form | null {
  const l = doc.layers;
  if (!Array.isArray(l) || l.length !== 1 || !Array.isArray(l[0].sequence) || l[0].sequence.length !== 1) return null;
  const s = l[0].sequence[0];
  const effect = String(s.type ?? s.runner ?? "");
  if (![...TYPES, ...RUNNERS].includes(effect)) return null;
  const c = (v: unknown, d: string) => (typeof v === "string" && /^#[0-9a-f]{6}$/i.test(v) ? v : d);
  return {
    name: String(doc.name ?? ""),
    effect,
    color: c(s.color ?? s.colorTo, BLANK.color),
    colorFrom: c(s.colorFrom, "#000000"),
    duration: Number(s.duration ?? 0),
    loop: doc.loop === true,
    stepLoop: s.loop === true,
  };
}

const pretty = (d: unknown) => JSON.stringify(d, null, 2);

/** Which form field a 422 path names, if any. */
function fieldOf(path: string): keyof Form | null {
  const last = splitPath(path).pop() ?? "";
  if (path === "name") return "name";
  if (last === "type" || last === "runner") return "effect";
  if (last === "color" || last === "colorTo") return "color";
  if (last === "colorFrom" || last === "duration") return last;
  return null;
}

export interface EditRequest {
  id: string | null;
  doc: Doc | null;
  n: number;
}

export function SceneEditor(props: { request: EditRequest; reload(): Promise<unknown> }) {
  const [id, setId] = useState<string | null>(null);
  const [form, setForm] = useState<Form | null>(BLANK);
  const [text, setText] = useState(pretty(formToDoc(BLANK)));
  const [err, run, setErr, lastErr] = useAction();
  const apiErr = err ? lastErr : null; // the error shown now (New and a new scene clear it)
  const [saved, setSaved] = useState("");
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const errId = useId("scene-err");

  useEffect(() => {
    if (!props.request.n) return;
    const doc = props.request.doc ?? formToDoc(BLANK);
    setId(props.request.id);
    setForm(docToForm(doc));
    setText(pretty(doc));
    setErr(null);
    setSaved("");
  }, [props.request]);

  // The form is shown only while the text is a document it can show, so the text parses here.
  const setField = (p: Partial<Form>) => {
    const f = { ...(form ?? BLANK), ...p };
    setForm(f);
    setText(pretty(edited(JSON.parse(text) as Doc, f, p)));
    setSaved("");
  };

  // Where the error is: the span of the path it names (or of the JSON syntax error) in the text.
  const where = useMemo(() => {
    if (!apiErr) return null;
    if (apiErr.path) return locate(text, apiErr.path);
    const m = /position (\d+)/.exec(apiErr.detail);
    if (apiErr.status === 400 && m) {
      const at = Number(m[1]);
      return { start: at, end: at + 1, line: text.slice(0, at).split("\n").length };
    }
    return null;
  }, [apiErr]);
  const badField = apiErr?.path ? fieldOf(apiErr.path) : null;

  useEffect(() => {
    if (where && area.current) {
      area.current.setSelectionRange(where.start, where.end);
      const lineHeight = area.current.scrollHeight / text.split("\n").length;
      area.current.scrollTop = Math.max(0, (where.line - 3) * lineHeight);
    }
  }, [where]);

  const parse = (): Doc => {
    try {
      return JSON.parse(text) as Doc;
    } catch (e) {
      throw new ApiError(400, `The text is not valid JSON: ${(e as Error).message}`);
    }
  };
  const save = (asNew: boolean) =>
    run(async () => {
      const doc = parse();
      delete doc.id;
      const r = await api<{ id: string }>(
        asNew || !id ? "POST" : "PATCH",
        asNew || !id ? "/api/scenes" : `/api/scenes/${id}`,
        doc,
      );
      setId(r.id);
      setSaved(`Saved “${String(doc.name)}”.`);
      await props.reload();
    });
  const play = () => run(() => api("POST", "/api/scenes/play/one-shot", parse()));

  const lines = text.split("\n").length;
  const fieldErr = (k: keyof Form) => (badField === k ? { "aria-invalid": true, "aria-describedby": errId } : {});
  const f = form;
  return (
    <section class="card" aria-labelledby="ed-h">
      <h2 id="ed-h">Scene editor</h2>
      <p class="muted small">
        {id ? `Editing scene ${id}. ` : "A new scene. "}
        {f
          ? "The form writes the JSON below; edit the JSON for anything more."
          : "This scene has more than the form shows: edit its JSON."}
      </p>
      {f && (
        <div class="form">
          <label class="field">
            <span>Name</span>
            <input
              value={f.name}
              maxLength={64}
              onInput={(e) => setField({ name: e.currentTarget.value })}
              {...fieldErr("name")}
            />
          </label>
          <label class="field">
            <span>Effect</span>
            <select
              value={f.effect}
              onChange={(e) => setField({ effect: e.currentTarget.value })}
              {...fieldErr("effect")}
            >
              <optgroup label="On the panels">
                {TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </optgroup>
              <optgroup label="Runners">
                {RUNNERS.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </optgroup>
            </select>
          </label>
          <label class="swatch">
            <input
              type="color"
              value={hexIn(f.color)}
              onInput={(e) => setField({ color: e.currentTarget.value })}
              {...fieldErr("color")}
            />
            <span>Colour</span>
          </label>
          {USES_FROM.has(f.effect) && (
            <label class="swatch">
              <input
                type="color"
                value={hexIn(f.colorFrom)}
                onInput={(e) => setField({ colorFrom: e.currentTarget.value })}
                {...fieldErr("colorFrom")}
              />
              <span>From colour</span>
            </label>
          )}
          <label class="field">
            <span>Duration (ms, 0 endless)</span>
            <input
              type="number"
              min={0}
              max={65535}
              value={f.duration}
              onInput={(e) => setField({ duration: Number(e.currentTarget.value) })}
              {...fieldErr("duration")}
            />
          </label>
          {!RUNNERS.includes(f.effect) && (
            <label class="check">
              <input
                type="checkbox"
                checked={f.stepLoop}
                onChange={(e) => setField({ stepLoop: e.currentTarget.checked })}
              />
              Loop the step <span class="muted small">(the effect repeats while the step lasts)</span>
            </label>
          )}
          <label class="check">
            <input type="checkbox" checked={f.loop} onChange={(e) => setField({ loop: e.currentTarget.checked })} />
            Loop the scene <span class="muted small">(it restarts when it ends)</span>
          </label>
          {badField && <Err id={errId} msg={err} />}
        </div>
      )}
      <label class="field" for="scene-json">
        <span>Scene JSON</span>
      </label>
      <div class="code">
        <div class="gutter" ref={gutter} aria-hidden="true">
          {Array.from({ length: lines }, (_, i) => (
            <div key={i} class={where?.line === i + 1 ? "bad" : ""}>
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          id="scene-json"
          ref={area}
          spellcheck={false}
          value={text}
          rows={Math.min(18, Math.max(8, lines))}
          aria-invalid={!!err}
          aria-describedby="scene-json-err"
          onScroll={(e) => gutter.current && (gutter.current.scrollTop = e.currentTarget.scrollTop)}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setSaved("");
            try {
              setForm(docToForm(JSON.parse(e.currentTarget.value) as Doc));
            } catch {
              setForm(null);
            }
          }}
        />
      </div>
      <Err id="scene-json-err" msg={err && (where ? `Line ${where.line}: ${apiErr?.detail ?? err}` : err)} />
      <div class="row">
        <button class="primary" onClick={() => save(false)}>
          {id ? "Save changes" : "Save scene"}
        </button>
        {id && <button onClick={() => save(true)}>Save as a new scene</button>}
        <button onClick={play}>Play without saving</button>
        <button
          onClick={() => {
            setId(null);
            setForm(BLANK);
            setText(pretty(formToDoc(BLANK)));
            setSaved("");
            setErr(null);
          }}
        >
          New
        </button>
      </div>
      <p class="ok" aria-live="polite">
        {saved}
      </p>
    </section>
  );
}

const BUILT_IN = ["Base colors", "Rainbow", "Lava", "Ocean", "Forest", "Party", "Sunset", "Aurora", "Embers"];
const isBuiltIn = (name: string) => BUILT_IN.some((b) => b.toLowerCase() === name.toLowerCase());

/** One more stop, halfway between the last two (taking the last one's colour), or at 255 after a lone one. */
function addStop(stops: [number, string][]): [number, string][] {
  const last = stops[stops.length - 1];
  if (stops.length === 1) return [...stops, [255, last[1]]];
  return [...stops.slice(0, -1), [(stops[stops.length - 2][0] + last[0]) >> 1, last[1]], last];
}

export function gradient(stops: [number, string][]): string {
  if (stops.length === 1) return stops[0][1];
  return `linear-gradient(to right, ${stops.map(([p, c]) => `${c} ${Math.round((p / 255) * 1000) / 10}%`).join(", ")})`;
}

export function PaletteEditor(props: { palettes: Palette[]; reload(): Promise<unknown> }) {
  const [chosen, setChosen] = useState("");
  const [name, setName] = useState("");
  const [stops, setStops] = useState<[number, string][]>([
    [0, "#000000"],
    [255, "#FFFFFF"],
  ]);
  const [err, run] = useAction();
  const [done, setDone] = useState("");
  const current = props.palettes.find((p) => p.name === chosen);
  const readOnly = !!current && isBuiltIn(current.name);

  const choose = (n: string) => {
    setChosen(n);
    setDone("");
    const p = props.palettes.find((q) => q.name === n);
    if (p) setStops(p.stops.map(([a, c]) => [a, c.toUpperCase()]));
    setName(p ? p.name : "");
  };
  const setStop = (i: number, s: [number, string]) => setStops(stops.map((x, k) => (k === i ? s : x)));
  const act = (f: () => Promise<unknown>, message: string) =>
    run(async () => {
      await f();
      setDone(message);
      await props.reload();
    });

  return (
    <section class="card" aria-labelledby="pal-h">
      <h2 id="pal-h">Palettes</h2>
      <label class="field">
        <span>Edit palette</span>
        <select value={chosen} onChange={(e) => choose(e.currentTarget.value)}>
          <option value="">New palette</option>
          {props.palettes.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
              {isBuiltIn(p.name) ? " (built in)" : ""}
            </option>
          ))}
        </select>
      </label>
      <div class="gradient" style={{ background: gradient(stops) }} role="img" aria-label="The palette's gradient" />
      {!current && (
        <label class="field">
          <span>Palette name</span>
          <input value={name} maxLength={30} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
      )}
      {readOnly && <p class="muted small">Built-in palettes are read-only: pick “New palette” to make your own.</p>}
      <ol class="stops">
        {stops.map(([pos, color], i) => (
          <li key={i}>
            <label class="field inline">
              <span>Stop {i + 1} position</span>
              <input
                type="number"
                min={0}
                max={255}
                value={pos}
                disabled={readOnly}
                onInput={(e) => setStop(i, [Number(e.currentTarget.value), color])}
              />
            </label>
            <label class="swatch">
              <input
                type="color"
                value={hexIn(color)}
                disabled={readOnly}
                onInput={(e) => setStop(i, [pos, hexOut(e.currentTarget.value)])}
              />
              <span>Stop {i + 1} colour</span>
            </label>
            {!readOnly && stops.length > 1 && (
              <button aria-label={`Remove stop ${i + 1}`} onClick={() => setStops(stops.filter((_, k) => k !== i))}>
                ✕
              </button>
            )}
          </li>
        ))}
      </ol>
      {!readOnly && (
        <div class="row">
          <button disabled={stops.length >= 16} onClick={() => setStops(addStop(stops))}>
            Add stop
          </button>
          {current ? (
            <>
              <button
                class="primary"
                onClick={() =>
                  act(() => api("PUT", `/api/palettes/${enc(current.name)}`, { name: current.name, stops }), "Saved.")
                }
              >
                Save palette
              </button>
              <button
                class="danger"
                onClick={() =>
                  act(async () => {
                    await api("DELETE", `/api/palettes/${enc(current.name)}`);
                    // back to "New palette", unless another palette was picked while it was deleted
                    setChosen((c) => (c === current.name ? "" : c));
                  }, "Deleted.")
                }
              >
                Delete palette
              </button>
            </>
          ) : (
            <button
              class="primary"
              onClick={() =>
                act(async () => {
                  const r = await api<{ name: string }>("POST", "/api/palettes", { name, stops });
                  setChosen(r?.name ?? name);
                }, "Created.")
              }
            >
              Create palette
            </button>
          )}
        </div>
      )}
      <Err msg={err} />
      <p class="ok" aria-live="polite">
        {done}
      </p>
    </section>
  );
}
