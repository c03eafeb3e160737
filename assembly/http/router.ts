// Finds a request's handler in the routing table (api/routes.ts), on the URL's bytes as sent: no
// string is made but the one path parameter. The path is the URL up to any query string, without
// its leading slash and one trailing slash. The first pattern that matches the path decides: a
// method it lists runs its handler, any other answers 405 method_not_allowed; no pattern, 404
// not_found. HEAD is answered like GET (the host drops the body).
import { M_GET, M_HEAD } from "./request";
import { sendError } from "./response";
import { ROUTES, LARGE_ONLY } from "../api/routes";
import { mqttAvailable } from "../mqtt/service";

let paramStart: usize = 0;
let paramLength: u32 = 0;

/** Whether `pattern` matches the path [p, p+n); a `*` segment matches one path segment, whose bytes
 * are left in paramStart/paramLength. */
function matches(pattern: string, p: usize, n: u32): bool {
  paramLength = 0;
  let i: u32 = 0;
  for (let k = 0; k < pattern.length; k++) {
    const c = <u32>pattern.charCodeAt(k);
    if (c == 0x2a) {
      paramStart = p + i;
      while (i < n && load<u8>(p + i) != 0x2f) i++;
      paramLength = <u32>(p + i - paramStart);
    } else if (i < n && <u32>load<u8>(p + i) == c) i++;
    else return false;
  }
  return i == n;
}

/** The request's path: from the URL, without the query string, the leading and one trailing slash. */
export let pathStart: usize = 0;
export let pathLength: u32 = 0;

export function findPath(url: usize, urlLen: u32): void {
  let p = url;
  let n: u32 = 0;
  while (n < urlLen && load<u8>(url + n) != 0x3f) n++; // up to the query string
  if (n > 1 && load<u8>(p + n - 1) == 0x2f) n--;
  if (n > 0 && load<u8>(p) == 0x2f) {
    p++;
    n--;
  }
  pathStart = p;
  pathLength = n;
}

/** The row of ROUTES for the request (-1 none), or its pattern's first row negated minus 2 when no
 * row of the pattern lists the method. */
function find(method: u32, url: usize, urlLen: u32): i32 {
  findPath(url, urlLen);
  const p = pathStart;
  const n = pathLength;
  const m = method == M_HEAD ? M_GET : method;
  let found = -1;
  for (let i = 0; i < ROUTES.length; i++) {
    const r = ROUTES[i];
    if (found >= 0) {
      if (r.path != ROUTES[found].path) break; // a pattern's methods are adjacent rows
    } else if (!matches(r.path, p, n) || ((r.flags & LARGE_ONLY) != 0 && !mqttAvailable())) continue;
    found = i;
    if (r.method == m) return i;
  }
  return found >= 0 ? -2 - found : -1;
}

/** Handles the request. */
export function route(req: u32, method: u32, url: usize, urlLen: u32, body: usize, len: u32): void {
  const i = find(method, url, urlLen);
  if (i < 0) {
    sendError(req, i < -1 ? 405 : 404, i < -1 ? "method_not_allowed" : "not_found");
    return;
  }
  const r = ROUTES[i];
  const param = paramLength > 0 ? String.UTF8.decodeUnsafe(paramStart, paramLength) : "";
  r.handler(req, param, body, len);
}
