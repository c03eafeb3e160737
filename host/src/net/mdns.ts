// mDNS for the desktop host through bonjour-service: the controller's advertisement and the
// browse the core asks for (host_mdns_*). Off with --no-mdns: then nothing is advertised and every
// browse ends empty.
import { Bonjour, type Service } from "bonjour-service";

export interface Advertisement {
  port: number;
  hostname: string;
  service: string;
  txt: Record<string, string>;
}

/** Reads the packed record of host_mdns_advertise (docs/host-abi.md). */
export function unpackAdvertisement(b: Uint8Array): Advertisement | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < 2) return null;
  const strings: string[] = [];
  for (let at = 2; at < b.length;) {
    if (at + 2 > b.length) return null;
    const n = view.getUint16(at, true);
    if (at + 2 + n > b.length) return null;
    strings.push(Buffer.from(b.subarray(at + 2, at + 2 + n)).toString("utf8"));
    at += 2 + n;
  }
  if (strings.length < 2) return null;
  const txt: Record<string, string> = {};
  for (const entry of strings.slice(2)) {
    const eq = entry.indexOf("=");
    if (eq > 0) txt[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return { port: view.getUint16(0, true), hostname: strings[0], service: strings[1], txt };
}

/** "_mqtt._tcp" → { type: "mqtt", protocol: "tcp" }. */
function serviceType(service: string): { type: string; protocol: "tcp" | "udp" } | null {
  const m = /^_([a-z0-9-]+)\._(tcp|udp)$/i.exec(service);
  return m ? { type: m[1], protocol: m[2].toLowerCase() as "tcp" | "udp" } : null;
}

export class Mdns {
  private bonjour: Bonjour | null = null;
  private published: Service | null = null;

  constructor(
    private readonly enabled: boolean,
    private readonly log: (level: string, message: string) => void,
  ) {}

  private instance(): Bonjour {
    this.bonjour ??= new Bonjour({}, (e: Error) => this.log("warn", `mdns: ${e.message}`));
    return this.bonjour;
  }

  advertise(ad: Advertisement): void {
    if (!this.enabled) return;
    const type = serviceType(ad.service);
    if (!type) return this.log("warn", `mdns: cannot advertise service type ${ad.service}`);
    this.published?.stop?.();
    this.published = this.instance().publish({
      name: ad.hostname,
      host: `${ad.hostname}.local`,
      port: ad.port,
      ...type,
      txt: ad.txt,
    });
    this.log("info", `mdns: advertising ${ad.hostname}.local ${ad.service} port ${ad.port}`);
  }

  /** Self-update: `_arduino._tcp` on the espota port with the TXT entries of Arduino's own OTA
   * advertisement, so that the Arduino IDE and `espota.py -i <host>.local` find the controller. */
  advertiseOta(hostname: string, port: number, board: string): void {
    if (!this.enabled) return;
    this.instance().publish({
      name: hostname,
      host: `${hostname}.local`,
      port,
      type: "arduino",
      protocol: "tcp",
      txt: { board, tcp_check: "no", ssh_upload: "no", auth_upload: "no" },
    });
    this.log("info", `mdns: advertising ${hostname}.local _arduino._tcp port ${port}`);
  }

  /** Reports each service found (IPv4 address preferred, else its host name), then done. */
  browse(service: string, timeoutMs: number, found: (host: string, port: number) => void, done: () => void): void {
    const type = serviceType(service);
    if (!this.enabled || !type) {
      setImmediate(done);
      return;
    }
    const browser = this.instance().find(type, (s: Service) => {
      const v4 = (s.addresses ?? []).find((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a));
      found(v4 ?? s.host, s.port ?? 0);
    });
    setTimeout(() => {
      browser.stop();
      done();
    }, timeoutMs);
  }

  close(): Promise<void> {
    const b = this.bonjour;
    this.bonjour = null;
    if (!b) return Promise.resolve();
    return new Promise((resolve) => b.unpublishAll(() => (b.destroy(), resolve())));
  }
}
