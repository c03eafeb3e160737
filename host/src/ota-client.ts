// The sender's side of the espota self-update protocol (host/src/net/ota.ts has the receiver's and
// describes it): `tessera ota` (host/src/cli.ts) and the tests use it. Written from the protocol as
// Arduino documents it: a UDP invitation, a TCP server the controller connects back to, the image in
// pieces of 1460 bytes each answered before the next is sent, and the final "OK" or "ERR".
import dgram from "node:dgram";
import net from "node:net";
import dns from "node:dns/promises";
import { createHash } from "node:crypto";

const CHUNK = 1460;
const WAIT_MS = 10_000;
const RESULT_WAIT_MS = 60_000;

export interface UploadOptions {
  /** The controller: an address or a host name (a `.local` name is resolved by mDNS if the system cannot). */
  host: string;
  /** Its self-update port: 3232 on the large variant, 8266 on the small one. */
  port: number;
  image: Uint8Array;
  /** The invitation's command: 0 an app image (the default), 100 a filesystem image. */
  command?: number;
  /** The MD5 to announce (default: the image's own). */
  md5?: string;
  /** Bytes sent so far, after each piece. */
  onProgress?(sent: number, total: number): void;
}

/** Why an upload failed; `unreachable` when the controller never answered (a name that does not
 * resolve, a port nobody listens on, no answer to the invitation), as against a refusal. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
  }
}

/** Resolves a host name to an IPv4 address, through mDNS (_arduino._tcp) when the system cannot. */
async function resolve(host: string): Promise<string> {
  if (net.isIP(host)) return host;
  try {
    return (await dns.lookup(host, { family: 4 })).address;
  } catch (e) {
    if (!host.endsWith(".local")) throw new UploadError(`cannot resolve ${host}: ${(e as Error).message}`, true);
  }
  const { Bonjour } = await import("bonjour-service");
  const bonjour = new Bonjour();
  try {
    return await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new UploadError(`${host} not found by mDNS`, true)), 5000);
      const browser = bonjour.find({ type: "arduino" }, (s) => {
        const v4 = (s.addresses ?? []).find((a) => net.isIPv4(a));
        if (s.host.toLowerCase() !== host.toLowerCase() || !v4) return;
        clearTimeout(timer);
        browser.stop();
        ok(v4);
      });
    });
  } finally {
    bonjour.destroy();
  }
}

/** Reads what the controller answers on the TCP connection, one wait at a time. */
class Replies {
  private text = "";
  private waiter: (() => void) | null = null;
  private closed = false;
  constructor(sock: net.Socket) {
    sock.on("data", (d: Buffer) => {
      this.text += d.toString("latin1");
      this.waiter?.();
    });
    sock.on("close", () => {
      this.closed = true;
      this.waiter?.();
    });
  }
  /** Waits until something arrives (or the connection closes) and takes it. */
  async next(waitMs: number): Promise<string> {
    if (!this.text && !this.closed)
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new UploadError("no answer from the controller")), waitMs);
        this.waiter = () => (clearTimeout(timer), (this.waiter = null), ok());
      });
    const t = this.text;
    this.text = "";
    if (!t && this.closed) throw new UploadError("the controller closed the connection without a result");
    return t;
  }
}

/** Uploads an image; resolves once the controller answered OK, throws an UploadError otherwise. */
export async function upload(opts: UploadOptions): Promise<void> {
  const address = await resolve(opts.host);
  const image = opts.image;
  const md5 = opts.md5 ?? createHash("md5").update(image).digest("hex");
  const server = net.createServer();
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "0.0.0.0", () => ok());
  });
  const tcpPort = (server.address() as net.AddressInfo).port;
  const accepted = new Promise<net.Socket>((ok, fail) => {
    const timer = setTimeout(() => fail(new UploadError("the controller did not connect back")), WAIT_MS);
    server.once("connection", (s) => (clearTimeout(timer), ok(s)));
  });
  accepted.catch(() => {});
  const udp = dgram.createSocket("udp4");
  let sock: net.Socket | null = null;
  try {
    // 1. the invitation, on a connected socket: a port nobody listens on fails at once (ECONNREFUSED
    // from the ICMP answer) instead of after the wait
    const answer = await new Promise<string>((ok, fail) => {
      const where = `${opts.host} port ${opts.port}`;
      const timer = setTimeout(
        () => fail(new UploadError(`cannot reach ${where}: no answer to the invitation`, true)),
        WAIT_MS,
      );
      udp.once("message", (m) => (clearTimeout(timer), ok(m.toString("latin1").trim())));
      udp.once(
        "error",
        (e) => (clearTimeout(timer), fail(new UploadError(`cannot reach ${where}: ${e.message}`, true))),
      );
      udp.connect(opts.port, address, () => udp.send(`${opts.command ?? 0} ${tcpPort} ${image.length} ${md5}\n`));
    });
    if (answer !== "OK") throw new UploadError(`invitation refused: ${answer}`);
    // 2. the image, each piece answered before the next
    sock = await accepted;
    sock.setNoDelay(true);
    sock.on("error", () => {});
    const replies = new Replies(sock);
    let last = "";
    for (let sent = 0; sent < image.length;) {
      const piece = image.subarray(sent, sent + CHUNK);
      await new Promise<void>((ok, fail) => sock!.write(piece, (e) => (e ? fail(new UploadError(e.message)) : ok())));
      sent += piece.length;
      opts.onProgress?.(sent, image.length);
      last = await replies.next(WAIT_MS);
      if (last.includes("ERR")) throw new UploadError(`refused: ${last.slice(last.indexOf("ERR"))}`);
    }
    // 3. the result
    for (let i = 0; i < 5 && !last.includes("OK"); i++) {
      last = await replies.next(RESULT_WAIT_MS);
      if (last.includes("ERR")) throw new UploadError(`refused: ${last.slice(last.indexOf("ERR"))}`);
    }
    if (!last.includes("OK")) throw new UploadError("no result from the controller");
  } finally {
    sock?.destroy();
    udp.close();
    server.close();
  }
}
