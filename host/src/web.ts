// The web app at / (web/, built by `npm run build` into build/web/): the desktop host serves the
// gzip files of build/web/assets.json with their Content-Type, Cache-Control and ETag, as the native
// hosts serve the same bytes from build/web/web_assets.c (native/src/web.c). GET and HEAD only; an
// If-None-Match naming the ETag gets 304. Everything else goes on to the core.
import fs from "node:fs";
import path from "node:path";
import type http from "node:http";

interface Asset {
  path: string;
  file: string;
  type: string;
  cacheControl: string;
  etag: string;
}

interface Loaded extends Asset {
  bytes: Buffer;
}

/** Loads build/web/ once; without it (web app not built) `/` says how to build it. */
export function webAssets(dir: string, log: (level: string, message: string) => void): Map<string, Loaded> {
  const assets = new Map<string, Loaded>();
  try {
    const list = JSON.parse(fs.readFileSync(path.join(dir, "assets.json"), "utf8")) as Asset[];
    for (const a of list) assets.set(a.path, { ...a, bytes: fs.readFileSync(path.join(dir, a.file)) });
  } catch (e) {
    log("warn", `web app: ${dir} is missing or incomplete (run npm run build): ${(e as Error).message}`);
  }
  return assets;
}

/** If-None-Match: a list of entity tags (weak ones compare by their opaque part), or `*`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

export function webHandler(assets: Map<string, Loaded>) {
  return (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const p = (req.url ?? "/").split("?")[0];
    const a = assets.get(p);
    if (!a) {
      if (p !== "/" || assets.size > 0) return false;
      res
        .writeHead(503, { "Content-Type": "text/plain; charset=utf-8" })
        .end("The web app is not built: npm run build\n");
      return true;
    }
    const headers = { "Cache-Control": a.cacheControl, ETag: a.etag };
    req.resume(); // a GET body, if any, is not wanted
    if (matchesEtag(req.headers["if-none-match"], a.etag)) {
      res.writeHead(304, headers).end();
      return true;
    }
    res.writeHead(200, {
      ...headers,
      "Content-Type": a.type,
      "Content-Encoding": "gzip",
      "Content-Length": a.bytes.length,
    });
    res.end(req.method === "HEAD" ? undefined : a.bytes);
    return true;
  };
}
