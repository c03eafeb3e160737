// Open WebSocket connections and their per-connection mirror flag. Fixed-size, like the device's
// socket pool: a connection beyond MAX_CONNECTIONS is refused.

export const MAX_CONNECTIONS: i32 = 8;
const ids = new StaticArray<u32>(MAX_CONNECTIONS);
const used = new StaticArray<bool>(MAX_CONNECTIONS);
const mirroring = new StaticArray<bool>(MAX_CONNECTIONS);

function find(conn: u32): i32 {
  for (let i = 0; i < MAX_CONNECTIONS; i++) if (used[i] && ids[i] == conn) return i;
  return -1;
}

export function openConnection(conn: u32): bool {
  if (find(conn) >= 0) return true;
  for (let i = 0; i < MAX_CONNECTIONS; i++) {
    if (!used[i]) {
      used[i] = true;
      ids[i] = conn;
      mirroring[i] = false;
      return true;
    }
  }
  return false;
}

export function closeConnection(conn: u32): void {
  const i = find(conn);
  if (i >= 0) used[i] = false;
}

export function isOpen(conn: u32): bool {
  return find(conn) >= 0;
}

export function setMirroring(conn: u32, on: bool): void {
  const i = find(conn);
  if (i >= 0) mirroring[i] = on;
}

export function anyMirroring(): bool {
  for (let i = 0; i < MAX_CONNECTIONS; i++) if (used[i] && mirroring[i]) return true;
  return false;
}

/** Number of mirroring connections; `mirroringAt(k)` is the k-th one's id. */
export function mirroringCount(): i32 {
  let n = 0;
  for (let i = 0; i < MAX_CONNECTIONS; i++) if (used[i] && mirroring[i]) n++;
  return n;
}

export function mirroringAt(k: i32): u32 {
  for (let i = 0; i < MAX_CONNECTIONS; i++) {
    if (used[i] && mirroring[i]) {
      if (k == 0) return ids[i];
      k--;
    }
  }
  return 0;
}
