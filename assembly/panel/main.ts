// Panel firmware entry: the panel side of the bus. Every emulated panel of the desktop host runs
// this module; real panel firmware follows docs/bus-protocol.md. Packets arrive on an edge port;
// those from the upstream port are handled and relayed to the child ports, those from a child port
// are relayed upstream unchanged, so the tree behaves as one bus rooted at the controller.
import { panel_tx, panel_linked, panel_clock_ms } from "./imports";
import { firmwareVersion } from "./version";
import { booting, bootPacket, bootReset } from "./boot";
import "./abort"; // the panel's abort handler (asc --use abort=...)
import { PanelState, scaleRgb } from "./state";
import { prepare, start, trigger, updateParams, clearAll } from "./engine/engine";
import { composite } from "./engine/compositor";
import { tableReceive, tableApply, tableClose } from "./table";
import {
  packetValid,
  sealPacket,
  HEADER_SIZE,
  ADDR_BROADCAST,
  ADDR_LINK,
  MAX_PACKET,
  T_RESET,
  T_ASSIGN,
  T_HELLO,
  T_PROBE,
  T_EMPTY,
  T_QUERY,
  T_STATE,
  T_POWER,
  T_COLOR,
  T_BRIGHTNESS,
  T_BASE_COLORS,
  T_PALETTE,
  T_BACKGROUND,
  T_ANIM_PREPARE,
  T_ANIM_START,
  T_ANIM_CONTROL,
  T_ANIM_PARAMS,
  T_PULSE_TABLE,
  T_BOOT_ENTER,
  T_BOOT_RESTART,
  T_BOOT_ACK,
  T_COLORS,
  COLORS_HEAD,
} from "../bus/protocol";

const rx = memory.data(MAX_PACKET);
const tx = memory.data(16); // replies: at most 11 bytes
const state = new PanelState();

export function panel_rx_buffer(): usize {
  return rx;
}

/** A packet of `len` bytes has been written to the rx buffer, received on edge `port`. */
export function panel_rx(port: u32, len: u32): void {
  if (len > MAX_PACKET || !packetValid(rx, len)) return;
  const dst = load<u8>(rx);
  if (state.address == 0) {
    if (dst == ADDR_LINK && load<u8>(rx, 1) == T_ASSIGN) adopt(port);
    return;
  }
  if (port != state.upstream) {
    panel_tx(state.upstream, rx, len); // a reply from below travels on towards the controller
    return;
  }
  if (dst == ADDR_LINK) return; // already addressed: a tree has no second path to us
  const mine = dst == ADDR_BROADCAST || dst == state.address;
  if (dst != state.address) relayDown(len);
  if (mine) handle(len, dst);
}

export function panel_address(): u32 {
  return state.address;
}

/** The composited colour before global brightness at panel time `now` (ms): the animation engine's frame. */
export function panel_render(now: u32): u32 {
  return composite(now, state.background, state.color, state.look);
}

/** Composited colour before global brightness, now, as reported to the controller. */
export function panel_color(): u32 {
  return panel_render(panel_clock_ms());
}

/** What the LED shows: black when off, else the colour scaled by global brightness. */
export function panel_led(): u32 {
  return state.on ? scaleRgb(panel_color(), state.brightness) : 0;
}

export function panel_is_on(): u32 {
  return state.on ? 1 : 0;
}

function relayDown(len: u32): void {
  for (let p: u32 = 0; p < 3; p++) {
    if (p != state.upstream && panel_linked(p)) panel_tx(p, rx, len);
  }
}

function reply(type: u8): void {
  panel_tx(state.upstream, tx, sealPacket(tx, state.address, type));
}

function adopt(port: u32): void {
  state.address = load<u8>(rx, HEADER_SIZE);
  state.upstream = port;
  store<u8>(tx + HEADER_SIZE, <u8>port);
  store<u16>(tx + HEADER_SIZE + 1, firmwareVersion());
  reply(T_HELLO);
}

function rgbAt(offset: u32): u32 {
  const p = rx + HEADER_SIZE + offset;
  return ((<u32>load<u8>(p)) << 16) | ((<u32>load<u8>(p, 1)) << 8) | (<u32>load<u8>(p, 2));
}

function handle(len: u32, dst: u8): void {
  const type = load<u8>(rx, 1);
  const body = rx + HEADER_SIZE;
  if (type >= T_BOOT_ENTER && type <= T_BOOT_RESTART) {
    if (bootPacket(type, body, len, tx + HEADER_SIZE)) reply(T_BOOT_ACK);
    return;
  }
  if (booting && type != T_RESET) return; // the bootloader runs: the application waits
  switch (type) {
    case T_RESET:
      bootReset();
      state.reset();
      clearAll();
      tableClose(0);
      break;
    case T_PROBE:
      probe(load<u8>(body), load<u8>(body, 1));
      break;
    case T_QUERY: {
      const color = panel_color();
      store<u8>(tx + HEADER_SIZE, state.on ? 1 : 0);
      store<u8>(tx + HEADER_SIZE + 1, <u8>(color >> 16));
      store<u8>(tx + HEADER_SIZE + 2, <u8>(color >> 8));
      store<u8>(tx + HEADER_SIZE + 3, <u8>color);
      reply(T_STATE);
      break;
    }
    case T_POWER:
      state.on = load<u8>(body) != 0;
      break;
    case T_COLOR:
      state.color = rgbAt(0);
      break;
    case T_BRIGHTNESS:
      state.brightness = load<u8>(body);
      break;
    case T_BASE_COLORS:
      for (let i = 0; i < 3; i++) state.look.baseColors[i] = rgbAt(i * 3);
      break;
    case T_PALETTE: {
      // slot in the high nibble, count - 1 in the low one
      const b0 = <u32>load<u8>(body);
      state.look.setPalette(b0 >> 4, (b0 & 0x0f) + 1, body + 1);
      break;
    }
    case T_COLORS: {
      // a stream frame: this panel's r, g, b when it is among the packet's
      const at = ((<u32>state.address - <u32>load<u8>(body)) & 0xff) * 3;
      if (state.address != 0 && COLORS_HEAD + at + 3 <= len) state.color = rgbAt(1 + at);
      break;
    }
    case T_BACKGROUND:
      state.background = rgbAt(0);
      state.color = state.background; // a panel with no active layer shows the background
      break;
    case T_ANIM_PREPARE: {
      // a broadcast prepare may close a pulse table: this panel's own words, or nothing
      const rec = dst == ADDR_BROADCAST ? tableApply(body) : body;
      if (rec) prepare(rec, panel_clock_ms());
      break;
    }
    case T_PULSE_TABLE:
      tableReceive(rx, len, state.address);
      break;
    case T_ANIM_START: {
      let mode = load<u8>(body, 1);
      if (mode == 2) {
        // stop holding the frame (issue 18): the current frame becomes the panel's colour, then the
        // group's animations stop and clear as with mode 0
        state.color = panel_render(panel_clock_ms());
        mode = 0;
      }
      if (mode == 0) tableClose(load<u8>(body));
      start(load<u8>(body), mode, panel_clock_ms());
      break;
    }
    case T_ANIM_CONTROL:
      trigger(load<u8>(body), load<u8>(body, 1), panel_clock_ms());
      break;
    case T_ANIM_PARAMS:
      updateParams(load<u8>(body), load<u16>(body, 1), load<u8>(body, 3), load<u8>(body, 4), panel_clock_ms());
      break;
  }
}

function probe(edge: u32, newAddr: u8): void {
  if (edge > 2 || edge == state.upstream || !panel_linked(edge)) {
    store<u8>(tx + HEADER_SIZE, <u8>edge);
    reply(T_EMPTY);
    return;
  }
  store<u8>(tx + HEADER_SIZE, newAddr);
  store<u8>(tx + HEADER_SIZE + 1, <u8>edge);
  panel_tx(edge, tx, sealPacket(tx, ADDR_LINK, T_ASSIGN));
}
