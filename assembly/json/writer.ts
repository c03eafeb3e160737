// JSON output through one fixed buffer, to one of three sinks: the HTTP response being written, an
// MQTT payload (streamed to the host in pieces, host_mqtt_append), or a capture that collects the
// bytes (for small documents written to the store). A response that fits the buffer is sent with a
// Content-Length; a larger one streams out chunked as the buffer fills.
// Output is written synchronously, one document at a time, so one buffer serves them all.
import { host_http_head, host_http_body, host_http_end, host_mqtt_append, host_mqtt_publish } from "../host/imports";
import { SCRATCH, WRITER, WRITER_CAP } from "../rt/scratch";
import { utf8Put } from "../util/utf8";
import { storeValue } from "../store/kv";

const CAP = WRITER_CAP;
const buf = SCRATCH + WRITER; // rt/scratch.ts: shared with work that never runs while one writes
/** Bytes in the buffer (a global: every byte written reads it). */
let used: u32 = 0;

/** Where the output goes, in static memory rather than in globals (each costs WAMR about 52 B of
 * device heap): the HTTP request, its status and whether its head is sent, the capture collecting
 * bytes (an Array<u8>, 0 for none), whether an MQTT payload is being written and where its topic
 * starts. */
@final
@unmanaged
class Sink {
  req: u32;
  status: u32;
  capture: usize;
  topicAt: u32;
  streaming: bool;
  toMqtt: bool;
}
const sink = changetype<Sink>(memory.data(offsetof<Sink>()));

/** Starts an HTTP response to `request` with status `code`. */
export function begin(request: u32, code: u32): void {
  sink.req = request;
  sink.status = code;
  used = 0;
  sink.streaming = false;
  sink.capture = 0;
  sink.toMqtt = false;
}

/** Sends the head now with a chunked body, whatever the size (GET /api/scenes/{id} streams). */
export function beginChunked(request: u32, code: u32): void {
  begin(request, code);
  host_http_head(request, code, -1);
  sink.streaming = true;
}

/** Starts an MQTT payload: what does not fit the buffer goes to the host as it fills. */
export function beginMqtt(): void {
  used = 0;
  sink.toMqtt = true;
}

/** The largest topic beginTopic makes room for: prefixes of 64 characters, a hostname, the rest. */
const TOPIC_ROOM: u32 = 448;

/** Ends the MQTT payload begun with beginMqtt; what is written next is its topic (at most
 * TOPIC_ROOM bytes), published with it by publishMqttTopic. */
export function beginTopic(): void {
  if (used > CAP - TOPIC_ROOM) flush();
  sink.topicAt = used;
  sink.toMqtt = false;
}

/** Publishes the payload and the topic written after beginTopic. */
export function publishMqttTopic(retain: bool): void {
  const topicAt = sink.topicAt;
  host_mqtt_publish(buf + topicAt, used - topicAt, buf, topicAt, retain ? 1 : 0);
  used = 0;
}

/** Starts collecting output instead of sending it. */
export function beginCapture(): void {
  used = 0;
  sink.capture = changetype<usize>(storeValue(null, 0));
}

/** Ends a capture and returns its bytes. */
export function endCapture(): Array<u8> {
  const out = changetype<Array<u8>>(sink.capture);
  flush(); // (collects the rest)
  sink.capture = 0;
  return out;
}

function flush(): void {
  if (sink.toMqtt) {
    host_mqtt_append(buf, used);
    used = 0;
    return;
  }
  const capture = sink.capture;
  if (capture) {
    const n = changetype<Array<u8>>(capture).length;
    const out = storeValue(changetype<Array<u8>>(capture), n + <i32>used);
    memory.copy(out.dataStart + <usize>n, buf, used);
    used = 0;
    return;
  }
  const req = sink.req;
  if (!sink.streaming) {
    host_http_head(req, sink.status, -1);
    sink.streaming = true;
  }
  if (used > 0) host_http_body(req, buf, used);
  used = 0;
}

/** Ends the HTTP response. */
export function finish(): void {
  const req = sink.req;
  if (!sink.streaming) {
    host_http_head(req, sink.status, <i32>used);
    if (used > 0) host_http_body(req, buf, used);
  } else flush();
  host_http_end(req);
}

export function byte(c: u32): void {
  if (used == CAP) flush();
  store<u8>(buf + used++, <u8>c);
}

/** Appends a string as UTF-8, unquoted and unescaped (for JSON punctuation and known-safe text).
 * @message-raw: a literal argument is written from the UTF-8 message table instead, without a
 * string (scripts/messages-transform.mjs). */
export function raw(s: string): void {
  units(s, false);
}

/** The UTF-16 units of `s` as UTF-8, read directly (no bounds-checked call per unit), with JSON
 * escapes when `escaping`. A surrogate not in a pair has no UTF-8 form: it is written as U+FFFD, so
 * the output is always valid UTF-8. */
function units(s: string, escaping: bool): void {
  const p = changetype<usize>(s);
  const n = s.length;
  for (let i = 0; i < n; i++) {
    let c = <u32>load<u16>(p + ((<usize>i) << 1));
    if (c < 0x80) {
      if (escaping && (c == 0x22 || c == 0x5c || c < 0x20)) escape(c);
      else byte(c);
    } else {
      if (c >= 0xd800 && c < 0xe000) {
        const d = i + 1 < n ? <u32>load<u16>(p + ((<usize>i + 1) << 1)) : 0;
        if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        } else c = 0xfffd;
      }
      utf8(c);
    }
  }
}

/** A character beyond ASCII as UTF-8 (room made first, only when its bytes do not fit: an answer
 * that fits the buffer is never flushed before its end, so it keeps its Content-Length). */
function utf8(c: u32): void {
  if (used + (c < 0x800 ? 2 : c < 0x10000 ? 3 : 4) > CAP) flush();
  used += utf8Put(c, buf + used);
}

/** The hexadecimal digits, upper case (escapes and colours). */
const HEX = memory.data<u8>([
  0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46,
]);

/** Appends a JSON string literal, quoted and escaped. */
export function str(s: string): void {
  byte(0x22);
  strBody(s);
  byte(0x22);
}

/** Appends the escaped contents of a JSON string literal, without the quotes. */
export function strBody(s: string): void {
  units(s, true);
}

/** Appends UTF-8 bytes as a JSON string literal, quoted and escaped: the runs between escapes copied
 * whole (a scene list writes 100 names of up to 256 bytes). */
export function strBytes(ptr: usize, len: u32): void {
  byte(0x22);
  let from: u32 = 0;
  for (let i: u32 = 0; i < len; i++) {
    const c = <u32>load<u8>(ptr + i);
    if (c == 0x22 || c == 0x5c || c < 0x20) {
      copyRun(ptr + from, i - from);
      escape(c);
      from = i + 1;
    }
  }
  copyRun(ptr + from, len - from);
  byte(0x22);
}

/** Appends n bytes at p as they are, a buffer's room at a time. */
function copyRun(p: usize, n: u32): void {
  while (n > 0) {
    if (used == CAP) flush();
    const k = min(n, CAP - used);
    memory.copy(buf + used, p, k);
    used += k;
    p += k;
    n -= k;
  }
}

/** Appends the JSON escape of an ASCII byte that needs one (`"`, `\\`, a control character). */
export function escape(c: u32): void {
  byte(0x5c);
  if (c == 0x22 || c == 0x5c) byte(c);
  else if (c == 0x0a) byte(0x6e);
  else if (c == 0x0d) byte(0x72);
  else if (c == 0x09) byte(0x74);
  else {
    raw("u00");
    byte(load<u8>(HEX + (c >> 4)));
    byte(load<u8>(HEX + (c & 15)));
  }
}

export function int(n: i64): void {
  if (n < 0) {
    byte(0x2d);
    n = -n;
  }
  if (n >= 10) int(n / 10);
  byte(0x30 + <u32>(n % 10));
}

/** Appends a number with at most three decimals, trailing zeros dropped (speeds, fractions). */
export function decimal(v: f64): void {
  let milli = <i64>Math.round(v * 1000);
  if (milli < 0) {
    byte(0x2d);
    milli = -milli;
  }
  int(milli / 1000);
  let frac = <i32>(milli % 1000);
  if (frac == 0) return;
  byte(0x2e);
  let div = 100;
  while (frac > 0) {
    byte(0x30 + <u32>(frac / div));
    frac %= div;
    div /= 10;
  }
}

export function boolean(b: bool): void {
  raw(b ? "true" : "false");
}

/** Appends a colour as a JSON string "#RRGGBB". */
export function color(rgb: u32): void {
  byte(0x22);
  byte(0x23);
  for (let shift = 20; shift >= 0; shift -= 4) byte(load<u8>(HEX + ((rgb >> shift) & 15)));
  byte(0x22);
}
