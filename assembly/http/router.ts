// Finds a request's row in the routing table (api/routes.ts), on the URL's bytes as sent: no
// string is made but the one path parameter. The path is the URL up to any query string, without
// its leading slash and one trailing slash. The first pattern that matches the path decides: a
// method it lists runs its row, any other answers 405 method_not_allowed; no pattern, 404
// not_found. HEAD is answered like GET (the host drops the body).
import { M_GET, M_HEAD, jsonBody, setParam, paramStart, paramLength } from "./request";
import { pathName } from "./path-name";
import { answer, about, ANSWERED, A_NOT_FOUND, A_METHOD_NOT_ALLOWED, A_SYSTEM_OFF } from "./answers";
import * as w from "../json/writer";
import { PATTERNS, ROWS, ROW_COUNT, NEW, LARGE_ONLY, STREAM, READ_JSON, DOCUMENT, handle } from "../api/routes";
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

/** Or'ed into the row findRoute returns when the method is refused. */
const REFUSED = 0x100;

/** The request's row of ROWS (-1 when no pattern matches), or its pattern's first row | REFUSED when
 * no row of the pattern lists the method; the first pattern that matches decides. The path is the
 * URL [url, url+urlLen) up to any query string, without its leading slash and one trailing slash,
 * under "api/". Leaves the path parameter for `route`. */
export function findRoute(method: u32, url: usize, urlLen: u32): i32 {
  let n: u32 = 0;
  while (n < urlLen && load<u8>(url + n) != 0x3f) n++; // up to the query string
  if (n > 1 && load<u8>(url + n - 1) == 0x2f) n--;
  if (n > 0 && load<u8>(url) == 0x2f) {
    url++;
    n--;
  }
  if (n < 4 || load<u32>(url) != 0x2f697061) return -1; // "api/"
  const m = method == M_HEAD ? M_GET : method;
  let first = -1;
  let hit = false;
  let e = PATTERNS; // the pattern of the row (NEW steps to the next one)
  for (let i = 0; i < ROW_COUNT; i++) {
    const r = <u32>load<u16>(ROWS + ((<usize>i) << 1));
    if (r & NEW) {
      if (first >= 0) break;
      const len = <u32>load<u8>(e);
      hit = matches(e + 1, len, url + 4, n - 4);
      e += 1 + len;
    }
    if (!hit) continue;
    if ((r & LARGE_ONLY) != 0 && !mqttAvailable()) return -1;
    if (first < 0) first = i;
    if ((r & 7) == m) return i;
  }
  return first >= 0 ? REFUSED | first : -1;
}

/** The flags of the row found (or, for a method refused, of its pattern's first row). */
function flags(found: i32): u32 {
  return found < 0 ? 0 : load<u16>(ROWS + ((<usize>(found & ~REFUSED)) << 1));
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
  // the `*` segment ("" when the pattern has none: its length is 0)
  const param = f & PALETTE ? pathName(paramStart, paramLength) : utf8Decode(paramStart, paramLength);
  if (changetype<usize>(param) == 0 || (f & SCENE && !libraryId(param))) return answer(req, A_NOT_FOUND); // (=== null is a call)
  about(param, 0); // the id in a scene's messages
  if (f & DOCUMENT) w.begin(req, 200);
  const a = handle(found, req, param, f & READ_JSON ? jsonBody(req) : len);
  if (f & DOCUMENT) w.finish();
  else if (a != ANSWERED) answer(req, a);
}
