// The "Live preview" region: the panels drawn where they are, coloured every animation frame by
// the preview engine (the panels' own firmware), and the tools for the panel you click.
import { useEffect, useRef } from "preact/hooks";
import type { PreviewEngine } from "./engine.js";
import { DOT, type Drawing } from "./layout.js";
import { api } from "./api.js";
import { Err, hexOut, useAction, useLatest } from "./ui.js";

/** Frame work times (ms) of the last 600 frames, for the bench (window.tesseraPreview). */
const frames: number[] = [];
(window as unknown as { tesseraPreview: unknown }).tesseraPreview = {
  frames: () => frames.slice(),
};

const hex = (c: number) => "#" + c.toString(16).padStart(6, "0").toUpperCase();

interface Props {
  engine: PreviewEngine | null;
  drawing: Drawing | null;
  selected: number | null;
  onSelect(address: number | null): void;
  logicalRoot: number;
  setLogicalRoot(n: number): Promise<unknown>;
}

export function Preview({ engine, drawing, selected, onSelect, logicalRoot, setLogicalRoot }: Props) {
  const svg = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (!engine || !drawing || !svg.current) return;
    const els = drawing.shapes.map((s) => svg.current!.querySelector(`[data-address="${s.address}"]`)!);
    const out = new Uint32Array(els.length);
    const shown = new Int32Array(els.length).fill(-1);
    let raf = 0;
    const frame = () => {
      const t0 = performance.now();
      engine.render(t0, out);
      for (let i = 0; i < els.length; i++) {
        if (out[i] === shown[i]) continue;
        shown[i] = out[i];
        const c = hex(out[i]);
        els[i].setAttribute("fill", c);
        els[i].setAttribute("data-color", c);
      }
      frames.push(performance.now() - t0);
      if (frames.length > 600) frames.shift();
      raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(raf);
  }, [engine, drawing]);

  // Its height, for the page's scroll padding: on a phone it stays in view above what scrolls
  // (style.css), and what is scrolled to must land below it.
  const region = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = region.current!;
    const seen = new ResizeObserver(() =>
      document.documentElement.style.setProperty("--preview-height", `${el.offsetHeight}px`),
    );
    seen.observe(el);
    return () => seen.disconnect();
  }, []);

  const pick = (a: number) => onSelect(a === selected ? null : a);
  const key = (a: number) => (e: KeyboardEvent) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      pick(a);
    }
  };

  return (
    <section ref={region} class="card preview" role="region" aria-label="Live preview">
      <h2>Live preview</h2>
      {!drawing ? (
        <p class="muted">Loading the panels…</p>
      ) : drawing.shapes.length === 0 ? (
        <p class="muted">No panels found.</p>
      ) : (
        <svg ref={svg} viewBox={drawing.viewBox} aria-label={`${drawing.shapes.length} panels`}>
          {drawing.lines.map(([x1, y1, x2, y2], i) => (
            <line key={i} x1={x1} y1={y1} x2={x2} y2={y2} class="wire" />
          ))}
          {drawing.shapes.map((s) => {
            const common = {
              key: s.address,
              "data-address": s.address,
              "data-color": "#000000",
              fill: "#000000",
              class: s.address === selected ? "panel sel" : "panel",
              tabindex: 0, // lower case: on an SVG element Preact sets the attribute as written
              role: "button" as const,
              "aria-label": `Panel ${s.address}`,
              "aria-pressed": s.address === selected,
              onClick: () => pick(s.address),
              onKeyDown: key(s.address),
            };
            return s.points ? (
              <polygon points={s.points} {...common} />
            ) : (
              <circle cx={s.x} cy={s.y} r={DOT} {...common} />
            );
          })}
          {drawing.shapes.map((s) => (
            <text key={`t${s.address}`} x={s.x} y={s.y} class="num" aria-hidden="true">
              {s.address}
            </text>
          ))}
        </svg>
      )}
      {drawing && !drawing.embedded && drawing.shapes.length > 0 && (
        <p class="muted small">The wiring does not lie flat, so it is drawn as a tree.</p>
      )}
      {selected !== null && (
        <PanelTools key={selected} address={selected} logicalRoot={logicalRoot} setLogicalRoot={setLogicalRoot} />
      )}
    </section>
  );
}

function PanelTools(props: { address: number; logicalRoot: number; setLogicalRoot(n: number): Promise<unknown> }) {
  const { address } = props;
  const [err, run] = useAction();
  const setColor = useLatest((c: string) => api("PUT", `/api/panels/${address}/color`, { color: hexOut(c) }), run);
  return (
    <div class="tools">
      <h3>Panel {address}</h3>
      <label>
        Panel colour
        <input type="color" onInput={(e) => setColor(e.currentTarget.value)} />
      </label>
      {props.logicalRoot === address ? (
        <span class="muted">The logical root</span>
      ) : (
        <button onClick={() => run(() => props.setLogicalRoot(address))}>Make it the logical root</button>
      )}
      <Err msg={err} />
    </div>
  );
}
