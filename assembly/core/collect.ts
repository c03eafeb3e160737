// When the garbage collector runs. The minimal runtime's collector is a full mark and sweep over
// every live object: on the device it costs far more than a light request itself (GET /api/state:
// 85% of its instructions went to the collection). So it runs after an export that may leave much
// garbage (a write, a scene list, queued work), and after light ones (which leave at most a few
// hundred bytes each) only once every LIGHT_EXPORTS of them. Exports must end with one of these,
// never collect in the middle: the minimal runtime does not see references held on the stack.
const LIGHT_EXPORTS = 16;
let light = 0;

/** After an export that may have left garbage worth reclaiming. */
export function collectNow(): void {
  light = 0;
  __collect();
}

/** Before a large allocation (a request body): what light exports left must not split the free space. */
export function collectPending(): void {
  if (light > 0) collectNow();
}

/** After a light export: the collection waits for LIGHT_EXPORTS of them. */
export function collectLight(): void {
  if (++light >= LIGHT_EXPORTS) collectNow();
}
