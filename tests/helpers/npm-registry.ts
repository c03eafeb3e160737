// A package registry on loopback for `npm install`, made from the repository's package-lock.json:
// a packument per package name (each locked version's dependencies, bin, os/cpu and integrity) and
// its tarballs from npm's own cache (content-addressed by that integrity: `npm ci` put them there).
// npm then installs a packed tarball of this package as it would from the public registry, with no
// traffic off the machine (the suite talks to loopback only).
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import type { AddressInfo } from "node:net";
import { ROOT } from "./host.js";

interface Locked {
  name?: string;
  version: string;
  integrity?: string;
  [field: string]: unknown;
}

const FIELDS = [
  "dependencies",
  "optionalDependencies",
  "peerDependencies",
  "peerDependenciesMeta",
  "bin",
  "os",
  "cpu",
  "engines",
];

/** Where npm's cache keeps the content of `integrity` (cacache: content-v2/<algorithm>/<hex>). */
function cached(cache: string, integrity: string): string {
  const [algorithm, digest] = integrity.split(" ")[0].split(/-(.*)/s);
  const hex = Buffer.from(digest, "base64").toString("hex");
  return path.join(cache, "_cacache", "content-v2", algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

export interface Registry {
  url: string;
  /** The tarballs npm asked for that its cache lacks (answered 404: the install then fails). */
  missing: string[];
  close(): Promise<void>;
}

export async function startRegistry(): Promise<Registry> {
  const cache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, Locked>;
  };
  const versions = new Map<string, Map<string, Locked>>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where || !entry.integrity) continue; // the root, links
    const name = entry.name ?? where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);
    if (!versions.has(name)) versions.set(name, new Map());
    versions.get(name)!.set(entry.version, entry);
  }
  const tarballs = new Map<string, string>();
  const missing: string[] = [];
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url!, "http://x").pathname.slice(1));
    const file = tarballs.get(url);
    if (url.endsWith(".tgz") && !file) missing.push(url);
    if (file) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      fs.createReadStream(file).pipe(res);
      return;
    }
    const known = versions.get(url);
    if (!known) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found"}');
      return;
    }
    const doc = {
      name: url,
      "dist-tags": { latest: [...known.keys()].at(-1) },
      versions: {} as Record<string, unknown>,
    };
    for (const [version, entry] of known) {
      const tarball = `${address}/${url}/-/${url.split("/").pop()}-${version}.tgz`;
      doc.versions[version] = {
        name: url,
        version,
        ...Object.fromEntries(FIELDS.filter((f) => f in entry).map((f) => [f, entry[f]])),
        dist: { tarball, integrity: entry.integrity },
      };
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const [name, known] of versions)
    for (const [version, entry] of known) {
      const file = cached(cache, entry.integrity!);
      if (fs.existsSync(file)) tarballs.set(`${name}/-/${name.split("/").pop()}-${version}.tgz`, file);
    }
  return {
    url: address,
    missing,
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
}
