// What the main loop has to look at: one bit per subsystem with something to do on a tick (a timer
// running, a change to send). Whatever gives a subsystem work sets its bit; the loop clears it once
// the subsystem is idle. A tick with no bit set reads this one global and returns: on a classic
// interpreter a call that finds nothing to do costs about a thousand instructions, and a dozen of
// them were most of an idle tick (docs/device-memory.md).
export let wake: u32 = 0;

export const WAKE_QUEUE: u32 = 1; // work queued (queue.ts)
export const WAKE_PLAYBACK: u32 = 2; // a scene, a flat spawner or drops in flight (player.ts, spawn.ts)
export const WAKE_DISCOVERY: u32 = 4; // discovery running (discovery.ts)
export const WAKE_QUERY: u32 = 8; // a panel state query in flight (query.ts)
export const WAKE_MIRROR: u32 = 16; // mirror records waiting for their flush (mirror.ts)
export const WAKE_MQTT: u32 = 32; // MQTT timers, or states that may have changed (mqtt/)
export const WAKE_STATE: u32 = 64; // the app state changed: APP_STATE to broadcast (state/app.ts)
export const WAKE_FIRMWARE: u32 = 128; // a panel flash, its restart wait or a serial frame (firmware/)
export const WAKE_STREAM: u32 = 256; // a live stream owns the panels: its timeout runs (stream/show.ts)

export function wakeUp(bits: u32): void {
  wake |= bits;
}

export function wakeDone(bits: u32): void {
  wake &= ~bits;
}
