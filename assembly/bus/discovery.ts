// Boot-time discovery of the panel tree, depth first. Every addressed panel forgets its address
// (RESET), the panel on the controller's port is assigned index 1, then each panel's free edge
// slots are probed in order 0-2: the neighbour found there takes the next index and is probed in
// turn before its siblings, so indices follow a stable depth-first walk of the wiring.
import { send, body } from "./send";
import { T_RESET, T_ASSIGN, T_PROBE, ADDR_BROADCAST, ADDR_LINK } from "./protocol";
import { tree, MAX_PANELS } from "../topology/tree";
import { log, LOG_INFO, LOG_WARN } from "../util/log";
import { wakeUp, wakeDone, WAKE_DISCOVERY } from "../core/wake";
import { Fixed } from "../rt/fixed";
import { intText } from "../util/int-text";

/** How long a probe may stay unanswered before its slot counts as empty. */
export const PROBE_TIMEOUT_MS: u32 = 100;
/** An unanswered probe is sent again this many times in all before its slot counts as empty. */
export const PROBE_TRIES: i32 = 3;

let running = false;
let limit: i32 = 100; // MAX_PANELS as a literal: the global's own initial value, not start-up code
if (MAX_PANELS != 100) ERROR("bus/discovery.ts: limit's initial value");
// The walk needs no stack: the panel found last is probed first, and a panel with no slot left to
// probe hands over to its parent (tree.parent; 0, the controller, ends the walk). Per panel: the
// next slot to probe.
const nextSlot = changetype<Fixed<u8>>(memory.data(MAX_PANELS + 1));
let current: i32 = 0;
// The outstanding probe.
let awaitParent: i32 = 0;
let awaitSlot: i32 = 0;
/** When it was sent (static memory: a wasm global costs WAMR about 52 B of heap). */
const sentAt = changetype<Fixed<u32>>(memory.data(4, 4));
let tries = 0;
/** The lowest and highest firmware version the panels reported in their HELLO (GET /api/firmware/status). */
export let firmwareLowest: u16 = 0;
export let firmwareHighest: u16 = 0;

// registered at start-up, before any export runs
let discovered: (() => void) | null = null;

/** When discovery ends, `then` runs (core/boot.ts registers panelsDiscovered). */
export function whenDiscovered(then: () => void): void {
  discovered = then;
}

/** Discovers the panels; when they are known, whenDiscovered's function. */
export function startDiscovery(maxPanels: i32, now: u32): void {
  limit = min(maxPanels, MAX_PANELS);
  tree.clear();
  current = 0;
  running = true;
  wakeUp(WAKE_DISCOVERY);
  send(ADDR_BROADCAST, T_RESET);
  awaitParent = 0;
  awaitSlot = 0;
  tries = 1;
  sendProbe(now);
}

/** Discovery once more, as at boot (after a panel firmware update has restarted the panels). */
export function rediscover(now: u32): void {
  startDiscovery(limit, now);
}

/** Sends the outstanding probe: ASSIGN to the controller's neighbour, or PROBE of a panel's slot. */
function sendProbe(now: u32): void {
  if (awaitParent == 0) {
    store<u16>(body(), 1); // newAddr 1, parentEdge 0
    send(ADDR_LINK, T_ASSIGN);
  } else {
    store<u16>(body(), <u16>(awaitSlot | ((tree.count + 1) << 8))); // edge, newAddr
    send(<u8>awaitParent, T_PROBE);
  }
  sentAt[0] = now;
}

/** A HELLO from `index`: the awaited neighbour took its address. */
export function onHello(index: i32, inEdge: i32, firmware: u16, now: u32): void {
  if (!running || index != tree.count + 1 || inEdge > 2) return;
  if (index == 1 || firmware < firmwareLowest) firmwareLowest = firmware;
  if (index == 1 || firmware > firmwareHighest) firmwareHighest = firmware;
  tree.add(index, awaitParent, awaitSlot, inEdge);
  nextSlot[index] = 0;
  current = index;
  advance(now);
}

/** An EMPTY from `index` for `slot`: nothing is plugged in there. */
export function onEmpty(index: i32, slot: i32, now: u32): void {
  if (running && index == awaitParent && slot == awaitSlot) advance(now);
}

export function discoveryTick(now: u32): void {
  if (!running || now - sentAt[0] < PROBE_TIMEOUT_MS) return;
  if (tries < PROBE_TRIES) {
    tries++;
    sendProbe(now);
  } else advance(now);
}

function advance(now: u32): void {
  while (current > 0) {
    const panel = current;
    const slot = <i32>nextSlot[panel];
    if (slot > 2) {
      current = <i32>tree.parent[panel];
      continue;
    }
    nextSlot[panel] = <u8>(slot + 1);
    if (slot == <i32>tree.inEdge[panel]) continue;
    if (tree.count >= limit) {
      log(LOG_WARN, "discovery: panel limit " + intText(limit) + " reached; further panels stay unaddressed");
      break;
    }
    awaitParent = panel;
    awaitSlot = slot;
    tries = 1;
    sendProbe(now);
    return;
  }
  running = false;
  wakeDone(WAKE_DISCOVERY);
  log(LOG_INFO, "discovery: " + intText(tree.count) + " panels");
  discovered!();
}
