// Which requests are meant for this controller (docs/decisions.md, "Host and Origin"). The spec has no
// authentication, so a web page on the LAN must not be able to drive the controller through a
// visitor's browser (cross-site requests) or read it through a name it controls (DNS rebinding):
// - `Host` must name the controller: `<hostname>` or `<hostname>.local` (its mDNS name), an IP literal
//   (IPv4 dotted quad or a bracketed IPv6 address), `localhost`, or a name of the configuration's
//   `allowedHosts`; any port; one trailing dot and letter case are ignored. A request without one is
//   400 host_required, another name 421 misdirected_request.
// - A request (or WebSocket upgrade) that carries `Origin` must come from a page of such a name: the
//   Origin's host is the request's own Host (the controller's own page), or one of the names above
//   other than an IP literal (another IP is another machine). Else 403 cross_origin; `Origin: null`
//   (a sandboxed or file page) too. No CORS header is ever sent, so a cross-site page cannot read an
//   answer either. Clients that send no Origin (curl, scripts, Home Assistant) are unaffected.
// Everything is checked on the header bytes as sent (the host's rx buffer), without strings.
import { A_HEADER_TOO_LARGE, A_HOST_REQUIRED, A_MISDIRECTED, A_CROSS_ORIGIN } from "./answers";
import { deviceName } from "../mqtt/config";
import { allowedHostCount, allowedHostAt, allowedHostLength } from "../state/config";

/** Longest Host or Origin value looked at; a longer one is not one of ours. */
const VALUE_CAP: u32 = 255;

/** ASCII lower case of one byte. */
function lower(c: u32): u32 {
  return c - 0x41 < 26 ? c | 0x20 : c;
}

/** [a, a+an) equals [b, b+bn) (ASCII, case-insensitively). */
function bytesEqual(a: usize, an: u32, b: usize, bn: u32): bool {
  if (an != bn) return false;
  for (let i: u32 = 0; i < an; i++) if (lower(load<u8>(a + i)) != lower(load<u8>(b + i))) return false;
  return true;
}

// The few words the policy knows, as bytes (static memory is scarce: a string costs twice and more).
const LOCALHOST = memory.data<u8>([0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x68, 0x6f, 0x73, 0x74]); // localhost
const DOT_LOCAL = memory.data<u8>([0x2e, 0x6c, 0x6f, 0x63, 0x61, 0x6c]); // .local

// The host part of the authority being looked at (set by splitAuthority).
let nameAt: usize = 0;
let nameLen: u32 = 0;

// What an authority is (ordered: the Host must be IP or OWN).
const MALFORMED = 0;
const NAME = 1; // a name not the controller's
const IP = 2;
const OWN = 3; // one of the controller's own names

/** [a, a+an) equals the ASCII string `s` (case-insensitively), compared with its UTF-16 units as
 * stored: no bytes are made of it for each request. */
function equalsAscii(a: usize, an: u32, s: string): bool {
  const p = changetype<usize>(s);
  if (an != <u32>s.length) return false;
  for (let i: u32 = 0; i < an; i++) if (lower(load<u8>(a + i)) != lower(load<u16>(p + (i << 1)))) return false;
  return true;
}

/** nameAt/nameLen is one of the controller's own names (not an IP literal). */
function isOwnName(): bool {
  if (bytesEqual(nameAt, nameLen, LOCALHOST, 9)) return true;
  const host = deviceName(); // ASCII
  const k = <u32>host.length;
  let own = nameLen;
  if (own == k + 6 && bytesEqual(nameAt + k, 6, DOT_LOCAL, 6)) own = k; // "<hostname>.local"
  if (k > 0 && equalsAscii(nameAt, own, host)) return true;
  const n = allowedHostCount();
  for (let i = 0; i < n; i++) if (bytesEqual(nameAt, nameLen, allowedHostAt(i), allowedHostLength(i))) return true;
  return false;
}

/** Splits `host[:port]` or `[v6][:port]` at [p, p+n) into nameAt/nameLen: OWN, NAME, IP (a literal)
 * or MALFORMED. One pass reads the host part up to its end (`]`, or `:` for a name) and says at once
 * whether it is an IPv4 literal (four decimal numbers 0-255 separated by dots) and, inside `[...]`, an
 * IPv6 literal (hex digits, colons, dots for an embedded IPv4, and a non-empty `%zone` of anything). */
function splitAuthority(p: usize, n: u32): i32 {
  if (n - 1 >= VALUE_CAP) return MALFORMED; // empty, or longer than any of ours
  const v6 = load<u8>(p) == 0x5b;
  let end = <u32>v6; // past the "["
  // IPv4: the parts seen (5 and more: not a quad), and the part being read after a leading 1
  // (1, 1d, 1dd, 1ddd), so that one number says both its digits and its value: 10 up to 1255.
  let parts = 0;
  let part: u32 = 1;
  // IPv6: the colons before the zone (negative once a byte cannot be in an address), and where the
  // zone starts (past its "%"; 0: none).
  let colons = 0;
  let zone: u32 = 0;
  while (end < n) {
    const c = lower(load<u8>(p + end));
    if (c == (v6 ? 0x5d : 0x3a)) break;
    end++;
    if (zone != 0) continue;
    if (c == 0x2e) {
      parts += part < 10 ? 5 : 1; // no digit: not a quad
      part = 1;
    } else if (c - 0x30 < 10) {
      if ((part = part * 10 + c - 0x30) > 1255) parts = 5;
    } else {
      parts = 5;
      if (c == 0x3a) colons++;
      else if (c == 0x25) {
        if (colons < 2) colons = -VALUE_CAP;
        zone = end;
      } else if (c - 0x61 >= 6) colons = -VALUE_CAP;
    }
  }
  const at = p + <usize>v6;
  let len = end - <u32>v6;
  if (v6) {
    if (end == n || colons < 2 || zone == end++) return MALFORMED; // no "]", or an empty zone; past the "]"
  } else {
    // "name." is "name" (its last part was counted); else the last part, as if a dot ended it
    if (len > 0 && load<u8>(at + len - 1) == 0x2e) len--;
    else parts += part < 10 ? 5 : 1;
    if (len == 0) return MALFORMED;
  }
  nameAt = at;
  nameLen = len;
  if (end < n) {
    if (load<u8>(p + end) != 0x3a || n - end - 2 >= 5) return MALFORMED; // a port of 1-5 digits
    while (++end < n) if (<u32>load<u8>(p + end) - 0x30 >= 10) return MALFORMED;
  }
  return v6 || parts == 4 ? IP : isOwnName() ? OWN : NAME;
}

/**
 * The policy for one request: Host (hostLen bytes) then Origin (originLen bytes, 0: none) at `p`.
 * 0 when the request may go on, else the answer's row (http/answers.ts: 400, 403, 421 or 431).
 */
export function allowRequest(p: usize, hostLen: u32, originLen: u32, available: bool): i32 {
  if (!available) return A_HEADER_TOO_LARGE;
  if (hostLen == 0) return A_HOST_REQUIRED;
  const host = splitAuthority(p, hostLen);
  if (host < IP) return A_MISDIRECTED; // malformed, or a name not ours
  const hostAt = nameAt;
  const hostNameLen = nameLen;
  if (originLen == 0) return 0;
  const o = p + hostLen;
  // "http://" or "https://" (either case), the authority, nothing after it but an optional "/"
  let i: u32 = 4;
  if (originLen > 4 && lower(load<u8>(o + 4)) == 0x73) i = 5; // "s"
  const ok =
    originLen >= i + 3 &&
    (load<u32>(o) | 0x20202020) == 0x70747468 && // "http": only H, T and P become h, t and p
    load<u8>(o + i) == 0x3a &&
    load<u16>(o + i + 1) == 0x2f2f;
  if (ok) {
    const at = o + i + 3;
    let n = originLen - i - 3;
    if (n > 0 && load<u8>(at + n - 1) == 0x2f) n--;
    const origin = splitAuthority(at, n);
    if (origin == OWN || (origin != MALFORMED && bytesEqual(nameAt, nameLen, hostAt, hostNameLen))) return 0;
  }
  return A_CROSS_ORIGIN;
}
