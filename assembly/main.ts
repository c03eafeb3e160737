// The controller core's exports, host → core: the whole surface a host drives. Each export does
// its work and returns. Memory is an arena (rt/arena.ts): what an export allocates is given back when
// it returns, so every export runs between arenaEnter and arenaLeave. See docs/host-abi.md.
import { host_clock_ms } from "./host/imports";
import { wake } from "./core/wake";
import { libraryVersion } from "./scene/store";
import { seenLibrary } from "./core/loop";
import { findRoute, streams, route } from "./http/router";
import { answer, A_TOO_LARGE, A_URI_TOO_LONG, A_BUSY } from "./http/answers";
import { allowRequest } from "./http/origin";
import { M_POST, M_PUT, M_PATCH } from "./http/request";
import { handleFrame, sendAppState, broadcastAppStateIfChanged } from "./ws/commands";
import { openConnection, closeConnection } from "./ws/connections";
import { packetValid, HEADER_SIZE, T_HELLO, T_EMPTY, T_STATE, T_BOOT_ACK } from "./bus/protocol";
import { startDiscovery, onHello, onEmpty } from "./bus/discovery";
import { onState, REPLIED } from "./bus/query";
import { runLoop } from "./core/loop";
import { arenaEnter, arenaLeave, arenaStart, arenaHold, arenaTop, arenaUsed } from "./rt/arena";
import { resetErrors } from "./json/validate";
import { loadSettings } from "./core/boot";
import { setBuild } from "./state/app";
import { networkInit, mqttEvent, mqttMessage, mdnsResult, mdnsDone } from "./mqtt/service";
import { uploadContinue } from "./api/firmware";
import { onBootAck } from "./firmware/flash";
import { serialReceive } from "./firmware/serial";
import { ddpReceive } from "./stream/ddp";
import { e131Receive } from "./stream/e131";

// Scratch buffer for WebSocket frames and bus packets (core_rx_buffer).
import { RX_CAP, rx } from "./core/rx";

// A request's URL waits in a buffer from core_http_begin to its dispatch, at most MAX_PENDING at
// once: the arena's floor stays above the pending buffers (heldTo) so the exports between them do
// not give it back. The host keeps the body; the core reads it (host_http_read) only for methods that
// take one, and never whole: a firmware image in pieces (STREAM), any other a JSON document as it
// streams (json/stream.ts: the scene pass, json/check-fields.ts), 256 bytes at a time.
const BODY_LIMIT: u32 = 32768;
const URL_LIMIT: u32 = 512;
const MAX_PENDING = 2;
/** A request between core_http_begin and its dispatch (buf 0: a free slot), in static memory. */
@final
@unmanaged
class Pending {
  req: u32;
  buf: usize; // its URL
  method: u32;
  urlLen: u32;
  bodyLen: u32;
  end: usize; // the arena's top after its buffer

  /** Slot i. */
  @inline
  static at(i: i32): Pending {
    return changetype<Pending>(PENDING + <usize>i * offsetof<Pending>());
  }
}
const PENDING = memory.data(<i32>offsetof<Pending>() * MAX_PENDING, 4);

/** The floor for the pending buffers: the end of the highest one (0: none pending). */
function heldTo(): usize {
  let end: usize = 0;
  for (let i = 0; i < MAX_PENDING; i++) {
    const p = Pending.at(i);
    if (p.buf != 0 && p.end > end) end = p.end;
  }
  return end;
}

/** An export ends (rt/arena.ts). The outermost one, if it allocated, also forgets the first
 * validation error: it points into the memory it gives back, and a later export must not read it as
 * if it were its own. An export that allocated nothing (a frame, a packet) cannot have set it. */
function leave(): void {
  if (arenaUsed()) resetErrors();
  arenaLeave();
}

/** POST, PUT and PATCH carry a document; any other method's body is ignored, whatever its size. */
function takesBody(method: u32): bool {
  return method == M_POST || method == M_PUT || method == M_PATCH;
}

/** Boot: read the stored settings, then discover the panels; the look is pushed when discovery ends.
 * `build` is the host's identifier of this image (controllerFirmware). */
function core_init(maxPanels: u32, build: u32): void {
  arenaStart(); // what module start-up allocated stays below the floor; core_init is an export like any
  arenaEnter();
  setBuild(build);
  networkInit(maxPanels > 32);
  loadSettings();
  // when the panels are known they get the look (core/boot.ts panelsDiscovered)
  startDiscovery(<i32>maxPanels, host_clock_ms());
  leave();
}

/** The main loop. Returns the milliseconds until the core next needs a tick. */
function core_tick(): u32 {
  // Nothing due (core/wake.ts): return before the loop. Its code stays outside any branch this path
  // takes: WAMR's classic interpreter finds the end of an if or block by scanning its body whenever
  // its small cache misses, and the inlined loop wrapped in a skipped if cost an idle tick 12 k.
  if (wake == 0 && libraryVersion == seenLibrary) return 10;
  arenaEnter();
  runLoop();
  leave();
  return 10;
}

/** A buffer of at least `len` bytes for the next frame or packet, or 0 if `len` is too large. */
function core_rx_buffer(len: u32): usize {
  return len <= RX_CAP ? rx : 0;
}

/** An HTTP request starts: returns where the host writes the URL, or 0 when the core has already
 * answered (413 payload_too_large, 414 uri_too_long, 503 busy). The body stays with the host. A POST
 * body above BODY_LIMIT may be for a route that streams it (the firmware upload): that is known at
 * dispatch, which answers 413 for any other. */
function core_http_begin(req: u32, method: u32, urlLen: u32, bodyLen: u32): usize {
  arenaEnter();
  const at = httpBegin(req, method, urlLen, bodyLen);
  leave();
  return at;
}

function httpBegin(req: u32, method: u32, urlLen: u32, bodyLen: u32): usize {
  if (!takesBody(method)) bodyLen = 0;
  let refused = A_BUSY; // no free slot
  if (bodyLen > BODY_LIMIT && method != M_POST) refused = A_TOO_LARGE;
  else if (urlLen > URL_LIMIT) refused = A_URI_TOO_LONG;
  else
    for (let i = 0; i < MAX_PENDING; i++) {
      const p = Pending.at(i);
      if (p.buf == 0) {
        const buf = heap.alloc(max<u32>(urlLen, 1));
        p.req = req;
        p.buf = buf;
        p.method = method;
        p.urlLen = urlLen;
        p.bodyLen = bodyLen;
        p.end = arenaTop();
        arenaHold(heldTo());
        return buf;
      }
    }
  answer(req, refused);
  return 0;
}

/** Before core_http_begin, and before a WebSocket upgrade is accepted: the request's Host, then its
 * Origin (0 bytes: none), are in the rx buffer. Returns 1 when the request is meant for this
 * controller (http/origin.ts); 0 after answering it (400, 403, 421; 431 when the two did not fit the
 * rx buffer and the host passed only their lengths). */
function core_http_allow(req: u32, hostLen: u32, originLen: u32): u32 {
  arenaEnter();
  const fits = hostLen <= RX_CAP && originLen <= RX_CAP - hostLen;
  const refused = allowRequest(rx, hostLen, originLen, fits);
  if (refused != 0) answer(req, refused);
  leave();
  return refused == 0 ? 1 : 0;
}

/** The URL of `req` is in place: read its body and handle it. Every request is answered exactly once. */
function core_http_dispatch(req: u32): void {
  arenaEnter();
  httpDispatch(req);
  arenaHold(heldTo()); // this request's buffer is given back with the rest of the export's memory
  leave();
}

function httpDispatch(req: u32): void {
  if (uploadContinue(req)) return; // more of a streamed upload's body has arrived
  for (let i = 0; i < MAX_PENDING; i++) {
    const p = Pending.at(i);
    const buf = p.buf;
    if (buf == 0 || p.req != req) continue;
    p.buf = 0;
    const want = p.bodyLen;
    const found = findRoute(p.method, buf, p.urlLen);
    if (streams(found)) {
      route(found, req, want); // its body is streamed by the upload, if any
    } else if (want > BODY_LIMIT) {
      answer(req, A_TOO_LARGE);
    } else {
      route(found, req, want); // the handler reads its document as it streams (json/stream.ts)
      broadcastAppStateIfChanged();
    }
    return;
  }
}

/** A WebSocket connection opened; returns 0 to refuse it (all connection slots in use). */
function core_ws_open(conn: u32): u32 {
  arenaEnter();
  const open = openConnection(conn);
  if (open) sendAppState(conn);
  leave();
  return open ? 1 : 0;
}

/** A binary frame of `len` bytes is in the rx buffer. */
function core_ws_frame(conn: u32, len: u32): void {
  if (len > RX_CAP) return;
  arenaEnter();
  handleFrame(conn, rx, len, host_clock_ms());
  broadcastAppStateIfChanged();
  leave();
}

function core_ws_close(conn: u32): void {
  arenaEnter();
  closeConnection(conn); // its mirror flag goes with it
  leave();
}

/** A packet of `len` bytes from the bus is in the rx buffer. */
function core_bus_receive(len: u32): void {
  if (len > RX_CAP || !packetValid(rx, len)) return;
  const from = <i32>load<u8>(rx);
  const body = rx + HEADER_SIZE;
  const now = host_clock_ms();
  arenaEnter();
  switch (load<u8>(rx, 1)) {
    case T_HELLO:
      onHello(from, <i32>load<u8>(body), load<u16>(body, 1), now);
      break;
    case T_BOOT_ACK:
      onBootAck(from, load<u8>(body), <u32>load<u16>(body, 1), load<u8>(body, 3), <u32>load<u16>(body, 4), now);
      break;
    case T_EMPTY:
      onEmpty(from, <i32>load<u8>(body), now);
      break;
    case T_STATE:
      // on, r, g, b: the word as bus/query.ts keeps it (on as 0 or 1)
      onState(
        from,
        (bswap<u32>(load<u32>(body)) & 0xffffff) | select<u32>(REPLIED | (1 << 24), REPLIED, load<u8>(body) != 0),
      );
      break;
  }
  leave();
}

/** `len` bytes from the serial port are in the rx buffer (the firmware frame, docs/bus-protocol.md). */
function core_serial_receive(len: u32): void {
  if (len > RX_CAP) return;
  arenaEnter();
  serialReceive(rx, len, host_clock_ms());
  leave();
}

/** The MQTT session changed: kind 1 connected, 2 lost, 3 connect failed with `reason` (0 unreachable,
 * 1 bad credentials, 2 refused, 3 MQTT unavailable on this host). */
function core_mqtt_event(kind: u32, reason: u32): void {
  arenaEnter();
  mqttEvent(kind, reason, host_clock_ms());
  leave();
}

/** A message on a subscribed topic: the topic's `topicLen` bytes then the payload's in the rx buffer. */
function core_mqtt_message(topicLen: u32, payloadLen: u32): void {
  if (topicLen + payloadLen > RX_CAP || topicLen > RX_CAP) return;
  arenaEnter();
  mqttMessage(rx, topicLen, payloadLen);
  leave();
}

/** An mDNS browse answer: the host name or address (`hostLen` bytes) in the rx buffer, and its port
 * (0 when the record has none). */
function core_mdns_result(hostLen: u32, port: u32): void {
  if (hostLen > RX_CAP) return;
  arenaEnter();
  mdnsResult(rx, hostLen, port, host_clock_ms());
  leave();
}

/** The browse ended (its time is up). */
function core_mdns_done(): void {
  arenaEnter();
  mdnsDone(host_clock_ms());
  leave();
}

// core_datagram's kinds: the UDP port the datagram came in on.
const DATAGRAM_DDP: u32 = 1;
const DATAGRAM_E131: u32 = 2;

/** A UDP datagram of `len` bytes is in the rx buffer, from IPv4 `source` (a.b.c.d as a << 24 | b << 16
 * | c << 8 | d), on the port of `kind`: 1 DDP (4048), 2 E1.31 (5568). Any other kind is dropped. */
function core_datagram(kind: u32, source: u32, len: u32): void {
  if (len > RX_CAP) return;
  arenaEnter();
  if (kind == DATAGRAM_DDP) ddpReceive(rx, len, source, host_clock_ms());
  else if (kind == DATAGRAM_E131) e131Receive(rx, len, source, host_clock_ms());
  leave();
}

// The exports under their wasm names: the functions' names without `core_` (docs/host-abi.md: a
// name is stored in the image once, and the prefix cost 5 bytes an export).
export {
  core_init as init,
  core_tick as tick,
  core_rx_buffer as rx_buffer,
  core_http_begin as http_begin,
  core_http_allow as http_allow,
  core_http_dispatch as http_dispatch,
  core_ws_open as ws_open,
  core_ws_frame as ws_frame,
  core_ws_close as ws_close,
  core_bus_receive as bus_receive,
  core_serial_receive as serial_receive,
  core_mqtt_event as mqtt_event,
  core_mqtt_message as mqtt_message,
  core_mdns_result as mdns_result,
  core_mdns_done as mdns_done,
  core_datagram as datagram,
};
