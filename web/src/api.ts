// The JSON API (interface spec, "Endpoints"): fetch with errors turned into sentences.

export interface Appearance {
  brightness: number;
  baseColors: [string, string, string];
  palette: string;
}
export interface Palette {
  name: string;
  stops: [number, string][];
}
export interface SceneItem {
  id: string;
  name: string;
  layerCount: number;
  duration: number;
}
export interface Configuration {
  powerStateOnBoot: number;
  logicalRoot: number;
}
export interface LayoutPanel {
  index: number;
  x: number;
  y: number;
  rotation: number;
}
export interface Layout {
  embedded: boolean;
  circumradius: number;
  root: number;
  panels: LayoutPanel[];
}
export interface Edge {
  panel: number;
  edge: number;
  connectedPanel: number;
  connectedEdge: number;
}
export interface PanelState {
  address: number;
  on: boolean;
  color: string;
}
export interface Mqtt {
  enabled: boolean;
  brokerDiscovery: number;
  broker: string;
  port: number;
  username: string;
  topicPrefix: string;
  discoveryPrefix: string;
  connected: boolean;
  brokerDiscoveryState: string;
  resolvedBroker: string;
  resolvedPort: number;
  discoverySource: string;
  lastError?: string;
}

const WORDS: Record<string, string> = {
  system_off: "The power is off: turn it on first.",
  busy: "The controller is busy: try again in a moment.",
  name_exists: "That name is taken.",
  not_found: "Not found: it may have been deleted elsewhere.",
  no_last_played_scene: "Nothing has been played yet.",
  group_not_found: "No layer of the playing scene has that name.",
  invalid_json: "The text is not valid JSON.",
  payload_too_large: "Too large for the controller.",
  broker_required: "Give a broker host, or pick a discovery mode.",
  schema_too_new: "This scene needs newer controller firmware.",
  internal_error: "The controller hit an internal error.",
  // a panel firmware upload's refusals (409, 507): the core's own texts
  "flash already in progress": "A flash is already in progress: wait for it to end.",
  "filesystem write failed": "The controller's storage is full (filesystem write failed): the image was not stored.",
};

/** An answer that was not 2xx: `message` is in words, `detail` the controller's own text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    where = "",
  ) {
    super((WORDS[detail] ?? (detail || `The controller answered ${status}.`)) + where);
  }
  /** A 422's JSON path (`layers[0].sequence[0].duration: must be ...` → `layers[0].sequence[0].duration`). */
  get path(): string | null {
    const m = this.status === 422 ? /^([A-Za-z0-9_.[\]]+): /.exec(this.detail) : null;
    return m ? m[1] : null;
  }
}

export const unreachable = () => new ApiError(0, "The controller cannot be reached.");

/** An answer's body as JSON (null when it is none), or its ApiError when the status is not 2xx. */
export function answer(status: number, text: string): unknown {
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (status < 200 || status > 299) {
    const { error: e, offset, reason } = (json ?? {}) as { error?: unknown; offset?: unknown; reason?: unknown };
    // invalid_json says where and why
    const where = typeof reason === "string" ? ` (${reason}, at byte ${offset})` : "";
    throw new ApiError(status, typeof e === "string" ? e : "", where);
  }
  return json;
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  } catch {
    throw unreachable();
  }
  return answer(res.status, await res.text()) as T;
}

export const enc = encodeURIComponent;
