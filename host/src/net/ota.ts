// Self-update over the network for the desktop host, with the protocol of Arduino's espota.py (the
// receiver's side; the C host's is native/src/ota.c, the sender is host/src/ota-client.ts):
//   1. the tool sends a UDP invitation "<command> <port> <size> <md5>\n" and waits for the answer:
//      "OK" (no password), or "ERR <reason>": not an app image (command 100 is a filesystem image),
//      larger than the slot, or an update already in progress;
//   2. the controller connects back over TCP to the tool's <port> and receives <size> bytes,
//      answering each piece (the last too, as ArduinoOTA does) with its byte count in ASCII digits; then "OK" once the MD5
//      matches and the image is in place (here: the new core runs), "ERR <reason>" otherwise.
// A piece that takes more than 10 s ends the update. One update at a time.
import dgram from "node:dgram";
import net from "node:net";
import { createHash } from "node:crypto";

export const OTA_APP = 0;
/** The desktop and POSIX hosts' slot: the largest image they take (a core is under 100 KB). */
export const OTA_SLOT_BYTES = 1 << 20;
const READ_WAIT_MS = 10_000;

export interface Invitation {
  command: number;
  port: number;
  size: number;
  md5: string;
}

/** Parses an invitation datagram; null when it is none. */
export function parseInvitation(text: string): Invitation | null {
  const m = /^\s*(\d{1,4})\s+(\d{1,5})\s+(\d{1,10})\s+([0-9a-fA-F]{32})[\s\0]*$/.exec(text);
  if (!m) return null;
  const [command, port, size] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (command > 1000 || port === 0 || port > 65535 || size === 0 || size > 0xffffffff) return null;
  return { command, port, size, md5: m[4].toLowerCase() };
}

export interface OtaOptions {
  port: number;
  /** Where to listen (the HTTP server's --host; default all interfaces). */
  host?: string;
  slotBytes?: number;
  /** The whole image with its MD5 checked: put it in place, or throw saying why not (answered ERR). */
  install(image: Buffer): void;
  log(level: string, message: string): void;
}

export class OtaReceiver {
  private socket: dgram.Socket | null = null;
  private busy = false;

  constructor(private readonly opts: OtaOptions) {}

  /** Listens on the UDP port; resolves false (after a warning) when it cannot. */
  start(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = dgram.createSocket("udp4");
      socket.once("error", (e) => {
        this.opts.log("warn", `ota: cannot listen on udp ${this.opts.port} (${e.message}); self-update is off`);
        socket.close();
        resolve(false);
      });
      socket.on("message", (msg, from) => this.invited(msg, from));
      socket.bind(this.opts.port, this.opts.host, () => {
        socket.removeAllListeners("error");
        socket.on("error", (e) => this.opts.log("warn", `ota: ${e.message}`));
        this.socket = socket;
        this.opts.log("info", `ota: espota self-update on udp ${this.opts.port}`);
        resolve(true);
      });
    });
  }

  private invited(msg: Buffer, from: dgram.RemoteInfo): void {
    const inv = parseInvitation(msg.toString("latin1"));
    if (!inv) return;
    let refusal = "";
    if (this.busy) refusal = "ERR busy: an update is in progress";
    else if (inv.command !== OTA_APP) refusal = "ERR not an app image";
    else if (inv.size > (this.opts.slotBytes ?? OTA_SLOT_BYTES)) refusal = "ERR too large for the slot";
    this.socket?.send(refusal || "OK", from.port, from.address);
    if (refusal) {
      this.opts.log("warn", `ota: invitation from ${from.address} refused (${refusal.slice(4)})`);
      return;
    }
    this.busy = true;
    this.opts.log("info", `ota: receiving ${inv.size} bytes from ${from.address}`);
    this.receive(from.address, inv).finally(() => (this.busy = false));
  }

  /** Connects back to the tool and receives the image. */
  private receive(address: string, inv: Invitation): Promise<void> {
    return new Promise((resolve) => {
      const sock = net.connect({ host: address, port: inv.port });
      const image = Buffer.alloc(inv.size);
      const md5 = createHash("md5");
      let got = 0;
      let done = false;
      const end = (answer: string, level: string, message: string) => {
        if (done) return;
        done = true;
        this.busy = false; // before the answer: the tool's next invitation is taken
        clearTimeout(timer);
        this.opts.log(level, message);
        if (sock.writable) sock.end(answer);
        else sock.destroy();
        setTimeout(() => sock.destroy(), 2000).unref(); // a tool that never closes its end
      };
      let timer = setTimeout(() => end("ERR timeout", "error", "ota: the tool did not connect"), READ_WAIT_MS);
      const rearm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => end("ERR timeout", "error", "ota: the upload stalled; ended"), READ_WAIT_MS);
      };
      sock.on("connect", rearm);
      sock.on("data", (piece: Buffer) => {
        if (done) return;
        const n = Math.min(piece.length, inv.size - got);
        piece.copy(image, got, 0, n);
        md5.update(piece.subarray(0, n));
        got += n;
        sock.write(String(n));
        rearm();
        if (got < inv.size) return;
        if (md5.digest("hex") !== inv.md5) return end("ERR MD5 mismatch", "error", "ota: MD5 mismatch; refused");
        try {
          this.opts.install(image);
          end("OK", "info", "ota: update done");
        } catch (e) {
          end(`ERR ${(e as Error).message}`.slice(0, 200), "error", `ota: refused: ${(e as Error).message}`);
        }
      });
      sock.on("error", (e) => end("ERR", "error", `ota: ${e.message}`));
      sock.on("close", () => {
        end("ERR", "error", `ota: the tool closed the connection after ${got} bytes`);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    return new Promise((resolve) => (s ? s.close(() => resolve()) : resolve()));
  }
}
