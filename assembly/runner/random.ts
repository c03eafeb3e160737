// The spawners' random source: one xorshift32 stream per spawner (one spawner a layer), each
// seeded from host_random() when its spawner starts. The core keeps no seed of its own: a host that
// makes host_random() deterministic (the desktop and POSIX hosts' `--seed N`) replays the exact
// same rain. See docs/runners.md, "Spawners".
import { host_random } from "../host/imports";

const STREAMS = 9; // the 8 layers' spawners and the flat animation's
const state = memory.data(STREAMS * 4, 4); // u32 each

/** Seeds stream `i` from the host's entropy (0, a fixed point of xorshift, is avoided). */
export function rngSeed(i: i32): void {
  const s = host_random();
  store<u32>(state + ((<usize>i) << 2), s != 0 ? s : 0x9e3779b9);
}

/** The next 32 random bits of stream `i` (Marsaglia's xorshift32, 13/17/5). */
export function rngNext(i: i32): u32 {
  const at = state + ((<usize>i) << 2);
  let x = load<u32>(at);
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  store<u32>(at, x);
  return x;
}

/** A uniform integer in [0, n) (n >= 1), by multiply-shift: no division, no modulo bias worth noting. */
export function rngBelow(i: i32, n: i32): i32 {
  return <i32>((<u64>rngNext(i) * <u64>n) >> 32);
}

/** A uniform fraction in [0, 1). */
export function rngUnit(i: i32): f64 {
  return <f64>rngNext(i) / 4294967296.0;
}
