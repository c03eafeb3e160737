// Panel firmware: choose an image (build/panel.fw or one of its kind), upload it with its progress
// (POST /api/firmware/panels, the raw bytes), then follow GET /api/firmware/status as the controller
// flashes each panel over the bus (docs/bus-protocol.md, "Flashing a panel").
import { useEffect, useRef, useState } from "preact/hooks";
import { answer, api, ApiError, unreachable } from "./api.js";
import { Err, useAction } from "./ui.js";

interface FlashStatus {
  state: "idle" | "connecting" | "flashing" | "verifying" | "done" | "error";
  panel: number;
  total: number;
  progress: number;
  error?: string;
  firmware: [number, number];
}

const ACTIVE = ["connecting", "flashing", "verifying"];

/** POSTs the file's bytes, answered as api() answers; XMLHttpRequest because fetch reports no upload
 * progress. */
function upload(file: Blob, progress: (percent: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open("POST", "/api/firmware/panels");
    x.setRequestHeader("Content-Type", "application/octet-stream");
    x.upload.onprogress = (e) => e.lengthComputable && progress(Math.floor((e.loaded * 100) / e.total));
    x.onload = () => {
      try {
        resolve(answer(x.status, x.responseText));
      } catch (e) {
        reject(e);
      }
    };
    x.onerror = () => reject(unreachable());
    x.send(file);
  });
}

function versions(f: [number, number]): string {
  return f[0] === f[1] ? `version ${f[0]}` : `versions ${f[0]} to ${f[1]}`;
}

function describe(s: FlashStatus): string {
  const which = `panel ${s.panel} of ${s.total}`;
  switch (s.state) {
    case "connecting":
      return `Connecting to ${which}…`;
    case "flashing":
      return `Flashing ${which}: ${s.progress}%`;
    case "verifying":
      return `Verifying ${which}: ${s.progress}%`;
    case "done":
      return `Done: ${s.total} panels flashed. The panels run firmware ${versions(s.firmware)}.`;
    case "error":
      return `The flash stopped: ${s.error}. The panels run firmware ${versions(s.firmware)}.`;
  }
  return `The panels run firmware ${versions(s.firmware)}.`;
}

export function PanelFirmware() {
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [status, setStatus] = useState<FlashStatus | null>(null);
  const [err, run] = useAction();
  // Polls while a flash runs, and a few times after it ends (the panels restart and are discovered
  // again, then report their new version).
  const after = useRef(0);
  const [polling, setPolling] = useState(true);
  useEffect(() => {
    if (!polling) return;
    let stop = false;
    const poll = async () => {
      const s = await api<FlashStatus>("GET", "/api/firmware/status").catch(() => null);
      if (stop) return;
      if (s) setStatus(s);
      if (s && ACTIVE.includes(s.state)) after.current = 6;
      else if (after.current-- <= 0) setPolling(false);
    };
    void poll();
    const t = window.setInterval(() => void poll(), 500);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [polling]);
  const busy = sent !== null && sent < 100 ? true : !!status && ACTIVE.includes(status.state);
  const send = () =>
    run(async () => {
      if (!file) throw new Error("Choose an image file first.");
      setSent(0);
      try {
        await upload(file, setSent);
      } catch (e) {
        setSent(null);
        if (e instanceof ApiError && e.status === 409) setPolling(true); // follow the flash that runs
        // a 422 says which check of the image failed, in the core's words
        if (e instanceof ApiError && e.status === 422)
          throw new Error(`The controller refused the image: ${e.detail || "not a panel firmware image"}.`);
        throw e;
      }
      setSent(100);
      after.current = 6;
      setPolling(true);
    });
  const s = status;
  return (
    <form
      class="form"
      aria-labelledby="fw-h"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <h3 id="fw-h">Panel firmware</h3>
      <label class="field">
        <span>Panel firmware image (.fw)</span>
        <input
          type="file"
          accept=".fw,application/octet-stream"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
      </label>
      <button class="primary" disabled={busy || !file}>
        Upload and flash
      </button>
      {sent !== null && (
        <label class="field">
          <span>Upload {sent}%</span>
          <progress max={100} value={sent} aria-label="Upload progress" />
        </label>
      )}
      <p aria-live="polite" id="fw-state">
        {s ? describe(s) : "…"}
      </p>
      {s && ACTIVE.includes(s.state) && (
        <progress max={100} value={s.progress} aria-label="Flash progress of the panel" />
      )}
      <Err msg={err} />
    </form>
  );
}
