// Finds a request's row in the routing table (api/routes.ts), on the URL's bytes as sent: no
// string is made but the one path parameter. The path is the URL up to any query string, without
// its leading slash and one trailing slash. The first pattern that matches the path decides: a
// method it lists runs its row, any other answers 405 method_not_allowed; no pattern, 404
// not_found. HEAD is answered like GET (the host drops the body).
import { M_GET, M_HEAD, jsonBody, setParam, paramStart, paramLength } from "./request";
import { pathName } from "./path-name";
import { answer, about, ANSWERED, A_NOT_FOUND, A_METHOD_NOT_ALLOWED, A_SYSTEM_OFF } from "./answers";
import * as w from "../json/writer";
import { PATTERNS, ROWS, ROW_COUNT, LARGE_ONLY, STREAM, READ_JSON, DOCUMENT, handle } from "../api/routes";
import { POWERED, SCENE, PALETTE } from "../api/routes";
import { mqttAvailable } from "../mqtt/service";
import { app } from "../state/app";
import { libraryId } from "../scene/store";
import { utf8Decode } from "../util/utf8";

/** Whether the pattern of `len` bytes at `k` matches the path after "api/", [p, p+n); a `*` segment
 * matches one path segment, whose bytes are left as the parameter (http/request.ts setParam). */
function matches(k: usize, len: u32, p: usize, n: u32): bool {
  setParam(0, 0);
  let i: u32 = 0;
  for (let j: u32 = 0; j < len; j++) {
    const c = load<u8>(k + j);
    if (c == 0x2a) {
      const at = i;
      while (i < n && load<u8>(p + i) != 0x2f) i++;
      setParam(p + at, i - at);
    } else if (i < n && load<u8>(p + i) == c) i++;
    else return false;
  }
  return i == n;
}

/** The number of the first pattern that matches the path of the URL [url, url+urlLen) (-1 none):
 * the URL up to any query string, without its leading slash and one trailing slash, under "api/". */
function findPattern(url: usize, urlLen: u32): i32 {
  let n: u32 = 0;
  while (n < urlLen && load<u8>(url + n) != 0x3f) n++; // up to the query string
  if (n > 1 && load<u8>(url + n - 1) == 0x2f) n--;
  if (n > 0 && load<u8>(url) == 0x2f) {
    url++;
    n--;
  }
  if (n < 4 || load<u32>(url) != 0x2f697061) return -1; // "api/"
  let line = 0;
  for (let e = PATTERNS; load<u8>(e) != 0; e += 1 + <usize>load<u8>(e), line++)
    if (matches(e + 1, load<u8>(e), url + 4, n - 4)) return line;
  return -1;
}

/** Or'ed into the row findRoute returns when the method is refused. */
const REFUSED = 0x100;

/** The request's row of ROWS (-1 no pattern matches), or its pattern's first row | REFUSED when no
 * row of the pattern lists the method. Leaves the path parameter for `route`. */
export function findRoute(method: u32, url: usize, urlLen: u32): i32 {
  const line = findPattern(url, urlLen);
  const m = method == M_HEAD ? M_GET : method;
  let first = -1;
  for (let i = 0; i < ROW_COUNT; i++) {
    const row = ROWS + <usize>i * 3;
    if (<i32>load<u8>(row) != line) continue;
    if ((load<u8>(row, 2) & LARGE_ONLY) != 0 && !mqttAvailable()) return -1;
    if (first < 0) first = i;
    if (<u32>load<u8>(row, 1) == m) return i;
  }
  return first >= 0 ? REFUSED | first : -1;
}

/** The flags of the row found (or, for a method refused, of its pattern's first row). */
function flags(found: i32): u32 {
  return found < 0 ? 0 : load<u8>(ROWS + <usize>(found & ~REFUSED) * 3, 2);
}

/** Whether the row found streams its body (api/routes.ts STREAM). */
export function streams(found: i32): bool {
  return (flags(found) & STREAM) != 0;
}

/** Handles the request found by findRoute; `len` is its body's length. */
export function route(found: i32, req: u32, len: u32): void {
  if (<u32>found >= <u32>REFUSED) return answer(req, found < 0 ? A_NOT_FOUND : A_METHOD_NOT_ALLOWED);
  const f = flags(found);
  if (f & POWERED && !app.isOn) return answer(req, A_SYSTEM_OFF);
  let param: string | null = "";
  if (f & PALETTE) param = pathName(paramStart, paramLength);
  else if (paramLength > 0) param = utf8Decode(paramStart, paramLength);
  if (changetype<usize>(param) == 0 || (f & SCENE && !libraryId(param))) return answer(req, A_NOT_FOUND); // (=== null is a call)
  about(param, 0); // the id in a scene's messages
  if (f & DOCUMENT) w.begin(req, 200);
  const a = handle(found, req, param, f & READ_JSON ? jsonBody(req) : len);
  if (f & DOCUMENT) w.finish();
  else if (a != ANSWERED) answer(req, a);
}
