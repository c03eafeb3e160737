// The live stream inputs of the desktop host: a UDP socket a protocol (DDP on 4048), each datagram
// handed to the core as it is (core_datagram); the core owns the protocol (assembly/stream/).
import dgram from "node:dgram";
import { ipv4Word } from "../abi.js";

export interface StreamOptions {
  port: number;
  /** Where to listen (the HTTP server's --host; default all interfaces). */
  host?: string;
  /** The core_datagram kind of this input (DATAGRAM). */
  kind: number;
  name: string;
  datagram(kind: number, source: number, bytes: Uint8Array): void;
  log(level: string, message: string): void;
}

export class StreamReceiver {
  private socket: dgram.Socket | null = null;

  constructor(private readonly opts: StreamOptions) {}

  /** Listens on the UDP port; resolves false (after a warning) when it cannot. */
  start(): Promise<boolean> {
    const { port, host, name, log } = this.opts;
    return new Promise((resolve) => {
      const socket = dgram.createSocket("udp4");
      socket.once("error", (e) => {
        log("warn", `${name}: cannot listen on udp ${port} (${e.message}); the ${name} input is off`);
        socket.close();
        resolve(false);
      });
      socket.on("message", (msg, from) => this.opts.datagram(this.opts.kind, ipv4Word(from.address), msg));
      socket.bind(port, host, () => {
        socket.removeAllListeners("error");
        socket.on("error", (e) => log("warn", `${name}: ${e.message}`));
        this.socket = socket;
        log("debug", `${name}: live stream input on udp ${port}`);
        resolve(true);
      });
    });
  }

  close(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    return new Promise((resolve) => (s ? s.close(() => resolve()) : resolve()));
  }
}
