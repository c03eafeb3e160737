// The hash of a scene file (scene/store.ts as it writes one, playback/form-io.ts hashFile as it reads
// one back): the compiled form keeps its scene file's hash to know when it is stale.
/** A hash of [p, p+n) continuing `h`, 8 bytes at a time (each step is a bijection of h, so one
 * changed word always changes the result); `fold` keeps 32 bits of it. Hashing a file in windows of
 * a multiple of 8 bytes gives the hash of the whole. */
export function hashBytes(h: u64, p: usize, n: u32): u64 {
  let i: u32 = 0;
  for (; i + 8 <= n; i += 8) h = rotl<u64>((h ^ load<u64>(p + i)) * 0x9e3779b97f4a7c15, 29);
  for (; i < n; i++) h = rotl<u64>((h ^ (<u64>load<u8>(p + i))) * 0x9e3779b97f4a7c15, 29);
  return h;
}

export function fold(h: u64): u32 {
  return <u32>(h ^ (h >> 32));
}

export const HASH_SEED: u64 = 0x811c9dc5;
