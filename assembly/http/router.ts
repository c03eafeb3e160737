// Finds a request's row in the routing table (api/routes.ts), on the URL's bytes as sent: no
// string is made but the one path parameter. The path is the URL up to any query string, without
// its leading slash and one trailing slash. The first pattern that matches the path decides: a
// method it lists runs its row, any other answers 405 method_not_allowed; no pattern, 404
// not_found. HEAD is answered like GET (the host drops the body).
import { M_GET, M_HEAD } from "./request";
import { sendError } from "./response";
import { PATTERNS, ROWS, ROW_COUNT, LARGE_ONLY, STREAM, HANDLERS } from "../api/routes";
import { mqttAvailable } from "../mqtt/service";

let paramStart: usize = 0;
let paramLength: u32 = 0;

/** Whether the pattern [k, end) of PATTERNS (UTF-16 units) matches the path after "api/", [p, p+n);
 * a `*` segment matches one path segment, whose bytes are left in paramStart/paramLength. */
function matches(k: i32, end: i32, p: usize, n: u32): bool {
  paramLength = 0;
  let i: u32 = 0;
  const text = changetype<usize>(PATTERNS);
  for (; k < end; k++) {
    const c = <u32>load<u16>(text + ((<usize>k) << 1));
    if (c == 0x2a) {
      paramStart = p + i;
      while (i < n && load<u8>(p + i) != 0x2f) i++;
      paramLength = <u32>(p + i - paramStart);
    } else if (i < n && <u32>load<u8>(p + i) == c) i++;
    else return false;
  }
  return i == n;
}

/** The request's path [pathStart, pathStart + pathLength): from the URL, without the query string,
 * the leading and one trailing slash. */
let pathStart: usize = 0;
let pathLength: u32 = 0;

function findPath(url: usize, urlLen: u32): void {
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

/** The first pattern line that matches the path (-1 none). Every pattern is under "api/". */
function findPattern(): i32 {
  if (pathLength < 4 || load<u32>(pathStart) != 0x2f697061) return -1; // "api/"
  const len = PATTERNS.length;
  let line = 0;
  for (let k = 0; k < len; line++) {
    let end = k;
    while (end < len && PATTERNS.charCodeAt(end) != 0x0a) end++;
    if (matches(k, end, pathStart + 4, pathLength - 4)) return line;
    k = end + 1;
  }
  return -1;
}

/** The request's row of ROWS (-1 no pattern matches), or its pattern's first row negated minus 2
 * when no row of the pattern lists the method. Leaves the path parameter for `route`. */
export function findRoute(method: u32, url: usize, urlLen: u32): i32 {
  findPath(url, urlLen);
  const line = findPattern();
  const m = method == M_HEAD ? M_GET : method;
  let first = -1;
  for (let i = 0; i < ROW_COUNT; i++) {
    const row = ROWS + <usize>i * 3;
    if (<i32>load<u8>(row) != line) continue;
    if ((load<u8>(row, 2) & LARGE_ONLY) != 0 && !mqttAvailable()) return -1;
    if (first < 0) first = i;
    if (<u32>load<u8>(row, 1) == m) return i;
  }
  return first >= 0 ? -2 - first : -1;
}

/** Whether the row found (or, for a method refused, its pattern) streams its body (routes.ts STREAM). */
export function streams(found: i32): bool {
  const i = found < -1 ? -2 - found : found;
  return i >= 0 && (load<u8>(ROWS + <usize>i * 3, 2) & STREAM) != 0;
}

/** Handles the request found by findRoute. */
export function route(found: i32, req: u32, body: usize, len: u32): void {
  if (found < 0) {
    sendError(req, found < -1 ? 405 : 404, found < -1 ? "method_not_allowed" : "not_found");
    return;
  }
  const param = paramLength > 0 ? String.UTF8.decodeUnsafe(paramStart, paramLength) : "";
  unchecked(HANDLERS[found])(req, param, body, len);
}
