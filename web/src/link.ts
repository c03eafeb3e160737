// The WebSocket link to /ws: binary frames (14-byte header, CRC-16/IBM; docs in README "Over
// WebSocket" and the interface spec), the mirror switched on at every connect, APP_STATE decoded,
// a PING heartbeat, and reconnection with backoff.

export const WS = { ANIMATION_TRIGGER: 8, MIRROR_BATCH: 9, SET_MIRROR: 10, PING: 11, PONG: 12, APP_STATE: 13 };

export interface AppState {
  isOn: boolean;
  lastPlayedSceneIsStored: boolean;
  playing: boolean;
  speed: number;
  lastPlayedSceneId: string;
  controllerFirmware: string;
}

/** CRC-16/IBM: reflected polynomial 0xA001, initial 0xFFFF. */
function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

export function frame(type: number, payload: number[] = []): Uint8Array {
  const b = new Uint8Array(14 + payload.length);
  const v = new DataView(b.buffer);
  b[0] = type;
  v.setUint16(1, 1, true);
  v.setUint32(3, Math.floor(performance.now() * 1000) >>> 0, true);
  v.setUint16(7, crc16(b.subarray(0, 7)), true);
  b.set(payload, 14);
  v.setUint16(9, crc16(b.subarray(14)), true);
  v.setUint16(11, payload.length, true);
  return b;
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
}

export function parseAppState(p: Uint8Array): AppState | null {
  if (p.length < 51) return null;
  return {
    isOn: p[0] === 1,
    lastPlayedSceneIsStored: p[1] === 1,
    playing: p[2] === 1,
    speed: Math.round(new DataView(p.buffer, p.byteOffset + 4, 4).getFloat32(0, true) * 100) / 100,
    lastPlayedSceneId: cString(p.subarray(8, 19)),
    controllerFirmware: cString(p.subarray(19, 51)),
  };
}

export interface LinkEvents {
  status(connected: boolean): void;
  appState(s: AppState): void;
  mirror(payload: Uint8Array, at: number): void;
}

export class Link {
  private ws: WebSocket | null = null;
  private retry = 500;
  private heard = 0;
  private timer = 0;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly on: LinkEvents,
  ) {
    this.open();
    // Heartbeat: a PING every 10 s; a connection silent for 25 s is taken as dead and reopened.
    this.timer = window.setInterval(() => {
      if (this.ws?.readyState !== WebSocket.OPEN) return;
      if (performance.now() - this.heard > 25000) this.ws.close();
      else this.send(WS.PING);
    }, 10000);
  }

  private open(): void {
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      this.heard = performance.now();
      this.on.status(true);
      this.send(WS.SET_MIRROR, [1]);
    };
    ws.onmessage = (e) => {
      const at = performance.now();
      this.heard = at;
      if (!(e.data instanceof ArrayBuffer) || e.data.byteLength < 14) return;
      const b = new Uint8Array(e.data);
      const size = b[11] | (b[12] << 8);
      const payload = b.subarray(14, 14 + size);
      if (b[0] === WS.MIRROR_BATCH) this.on.mirror(payload, at);
      else if (b[0] === WS.APP_STATE) {
        const s = parseAppState(payload);
        if (s) this.on.appState(s);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.on.status(false);
      if (this.closed) return;
      window.setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  send(type: number, payload: number[] = []): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(frame(type, payload));
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.ws?.close();
  }
}
