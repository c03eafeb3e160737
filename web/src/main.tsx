// The Tessera web app, served at / by every host: the live preview and every control.
import { render } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import "./style.css";
import {
  api,
  enc,
  type Appearance,
  type Configuration,
  type Edge,
  type Layout,
  type Palette,
  type SceneItem,
} from "./api.js";
import { PreviewEngine } from "./engine.js";
import { Link, type AppState } from "./link.js";
import { tree, triangles, type Drawing } from "./layout.js";
import { Preview } from "./preview.js";
import { Effects, Library, Look, Playing, Triggers } from "./controls.js";
import { PaletteEditor, SceneEditor, type EditRequest } from "./editors.js";
import { Settings } from "./settings.js";
import { Err, useAction } from "./ui.js";

/** Record types whose arrival means the look may have changed (set palette, base colours, brightness). */
const LOOK_TYPES = new Set([17, 18, 19]);

function App({ wasmUrl }: { wasmUrl: string }) {
  const [connected, setConnected] = useState<boolean | null>(null);
  const [app, setApp] = useState<AppState | null>(null);
  const [look, setLook] = useState<Appearance | null>(null);
  const [palettes, setPalettes] = useState<Palette[]>([]);
  const [scenes, setScenes] = useState<SceneItem[]>([]);
  const [config, setConfig] = useState<Configuration | null>(null);
  const [drawing, setDrawing] = useState<Drawing | null>(null);
  const [engine, setEngine] = useState<PreviewEngine | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [edit, setEdit] = useState<EditRequest>({ id: null, doc: null, n: 0 });
  const [reactive, setReactive] = useState(false);
  const [loadErr, runLoad] = useAction();
  const [powerErr, runPower] = useAction();
  const lookEdited = useRef(-Infinity);
  const lookTimer = useRef(0);
  const link = useRef<Link | null>(null);

  // Not over a change of this page's still in flight: then later, once it has landed.
  const loadLook = useCallback(async (): Promise<void> => {
    const a = await api<Appearance>("GET", "/api/appearance");
    const wait = lookEdited.current + 1500 - performance.now();
    if (wait <= 0) setLook(a);
    else {
      clearTimeout(lookTimer.current);
      lookTimer.current = window.setTimeout(() => void loadLook().catch(() => {}), wait);
    }
  }, []);
  const loadPalettes = useCallback(async () => setPalettes(await api<Palette[]>("GET", "/api/palettes")), []);
  const loadScenes = useCallback(async () => setScenes(await api<SceneItem[]>("GET", "/api/scenes")), []);
  const loadConfig = useCallback(async () => setConfig(await api<Configuration>("GET", "/api/configuration")), []);
  const loadLayout = useCallback(async () => {
    const layout = await api<Layout>("GET", "/api/layout");
    if (layout.embedded) return setDrawing(triangles(layout));
    const edges = await api<Edge[]>("GET", "/api/panels/edges");
    setDrawing(
      tree(
        layout.panels.map((p) => p.index),
        edges,
      ),
    );
  }, []);
  const loadAll = useCallback(
    () =>
      runLoad(() =>
        Promise.all([loadLook(), loadPalettes(), loadScenes(), loadConfig(), loadLayout()]).then(() => undefined),
      ),
    [],
  );

  // The panels' engine: build/panel.wasm, compiled once.
  useEffect(() => {
    void runLoad(async () => {
      const res = await fetch(wasmUrl);
      if (!res.ok) throw new Error("The panel engine (panel.wasm) could not be loaded.");
      setEngine(new PreviewEngine(await WebAssembly.compile(await res.arrayBuffer())));
    });
    void loadAll();
  }, []);

  // The link opens once the engine has its panels, so the mirror's snapshot reaches them.
  useEffect(() => {
    if (!engine || !drawing) return;
    engine.setPanels(drawing.shapes.map((s) => s.address));
    if (link.current) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let first = true;
    link.current = new Link(`${proto}//${location.host}/ws`, {
      status(up) {
        setConnected(up);
        if (!up) return;
        engine.reset();
        if (!first) void loadAll();
        first = false;
      },
      appState: setApp,
      mirror(payload, at) {
        engine.batch(payload, at);
        for (let o = 6; o + 3 <= payload.length; o += 3 + payload[o + 2]) {
          if (!LOOK_TYPES.has(payload[o + 1])) continue;
          clearTimeout(lookTimer.current);
          lookTimer.current = window.setTimeout(() => void loadLook().catch(() => {}), 250);
          break;
        }
      },
    });
  }, [engine, drawing]);

  // What other clients change in the library and palettes: read again when the page is looked at.
  useEffect(() => {
    const again = () => {
      if (document.hidden) return;
      void loadScenes().catch(() => {});
      void loadPalettes().catch(() => {});
    };
    const t = window.setInterval(again, 10000);
    document.addEventListener("visibilitychange", again);
    return () => {
      clearInterval(t);
      document.removeEventListener("visibilitychange", again);
    };
  }, []);
  useEffect(() => {
    if (app?.lastPlayedSceneId && !scenes.some((s) => s.id === app.lastPlayedSceneId))
      void loadScenes().catch(() => {});
  }, [app?.lastPlayedSceneId]);

  const patchConfig = async (p: Partial<Configuration>) => {
    await api("PATCH", "/api/configuration", p);
    await loadConfig();
    if (p.logicalRoot !== undefined) await loadLayout();
  };
  const editScene = (id: string) =>
    void api<Record<string, unknown>>("GET", `/api/scenes/${enc(id)}`)
      .then((doc) => {
        delete doc.id;
        setEdit({ id, doc, n: edit.n + 1 });
        document.getElementById("ed-h")?.scrollIntoView();
      })
      .catch(() => {});

  const isOn = app?.isOn ?? true;
  return (
    <>
      <header>
        <h1>Tessera</h1>
        <span class={connected ? "link up" : "link"} aria-live="polite">
          {connected ? "Live" : connected === null ? "Connecting…" : "Reconnecting…"}
        </span>
        <label class="power">
          <input
            type="checkbox"
            role="switch"
            checked={isOn}
            disabled={!app}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setApp(app && { ...app, isOn: on });
              void runPower(() => api("POST", "/api/state/power", { isOn: on }));
            }}
          />
          <span>Power</span>
        </label>
      </header>
      <Err msg={powerErr} />
      <Err msg={loadErr} />
      <main>
        <div class="col">
          <Preview
            engine={engine}
            drawing={drawing}
            selected={selected}
            onSelect={setSelected}
            logicalRoot={config?.logicalRoot ?? 0}
            setLogicalRoot={(n) => patchConfig({ logicalRoot: n })}
          />
          <Look
            look={look}
            palettes={palettes}
            edit={(p) => {
              lookEdited.current = performance.now();
              setLook(look && { ...look, ...p });
            }}
          />
          <Playing
            app={app}
            scenes={scenes}
            setSpeed={(speed) => setApp(app && { ...app, speed })}
            onStop={() => setReactive(false)}
          />
        </div>
        <div class="col">
          <Effects look={look} onReactive={setReactive} />
          <Triggers app={app} effect={reactive} />
          <Library scenes={scenes} app={app} reload={loadScenes} edit={editScene} />
          <SceneEditor request={edit} reload={loadScenes} />
          <PaletteEditor palettes={palettes} reload={() => Promise.all([loadPalettes(), loadLook()])} />
          <Settings config={config} app={app} patchConfig={patchConfig} />
        </div>
      </main>
      <footer>
        Tessera {app?.controllerFirmware} · <a href="/setup">Wi-Fi setup</a>
      </footer>
    </>
  );
}

const root = document.getElementById("app")!;
render(<App wasmUrl={root.dataset.panelWasm ?? "/panel.wasm"} />, root);
