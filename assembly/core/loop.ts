// The main loop: drains the work queue, then runs the timers of discovery, live queries and the
// mirror stream, then broadcasts APP_STATE if anything changed.
import { dequeue, W_APPEARANCE, W_POWER, W_PANEL_POWER, W_PANEL_COLOR, W_LOGICAL_ROOT } from "./queue";
import { W_PALETTE } from "./queue";
import { activePalette } from "../state/appearance";
import { changeAppearance, setPower } from "./look";
import { sendPower, sendColor, sendPalette } from "../bus/commands";
import { discoveryTick } from "../bus/discovery";
import { queryTick } from "../bus/query";
import { mirrorTick } from "../ws/mirror";
import { broadcastAppStateIfChanged } from "../ws/commands";
import { config, CONFIG_KEY, writeConfiguration } from "../state/config";
import { storeWrite } from "../store/kv";
import * as w from "../json/writer";

export function persistConfiguration(): void {
  w.beginCapture();
  writeConfiguration();
  storeWrite(CONFIG_KEY, w.endCapture());
}

/** Returns true when it applied queued work (which may allocate). */
export function runLoop(now: u32): bool {
  let item = dequeue();
  const worked = item != null;
  while (item) {
    switch (item.kind) {
      case W_APPEARANCE:
        changeAppearance(item.appearance!);
        break;
      case W_POWER:
        setPower(item.a != 0);
        break;
      case W_PANEL_POWER:
        sendPower(<u8>item.a, item.b != 0);
        break;
      case W_PANEL_COLOR:
        sendColor(<u8>item.a, <u32>item.b);
        break;
      case W_LOGICAL_ROOT:
        // Takes effect for depth, subtree and runner sources from here on (scene restart: playback).
        config.logicalRoot = item.a;
        persistConfiguration();
        break;
      case W_PALETTE:
        sendPalette(activePalette());
        break;
    }
    item = dequeue();
  }
  discoveryTick(now);
  queryTick(now);
  mirrorTick(now);
  broadcastAppStateIfChanged();
  return worked;
}
