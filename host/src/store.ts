// The key-value store of the host ABI as files in a data directory. Writes are atomic: a temp
// file is written and fsynced, then renamed over the old one and the directory fsynced, so a crash
// or a full disk leaves the previous value intact.
import fs from "node:fs";
import path from "node:path";
import { STORE_MISSING, STORE_IO_ERROR, STORE_FULL } from "./abi.js";

const KEY = /^[a-z0-9_-][a-z0-9._-]*(\/[a-z0-9_-][a-z0-9._-]*)?$/;

export class FileStore {
  /** `limit`: the test hook --store-limit: the bytes the store's files may take in all, beyond which
   * a write or append fails with STORE_FULL as a full partition would (undefined: no limit). */
  constructor(
    readonly dir: string,
    private readonly limit?: number,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    removeTemporaries(dir);
  }

  /** Whether `more` bytes would pass the limit. */
  private full(more: number): boolean {
    if (this.limit === undefined) return false;
    let used = 0;
    const walk = (dir: string, top: boolean) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (top && e.name.startsWith(".")) continue; // not the store's (the emulated panels' flash)
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p, false);
        else used += fs.statSync(p).size;
      }
    };
    walk(this.dir, true);
    return used + more > this.limit;
  }

  /** The file of a key, or null when the key is not a valid store key. */
  private file(key: string): string | null {
    if (!KEY.test(key) || key.length > 255 || key.endsWith(".tmp")) return null;
    return path.join(this.dir, key);
  }

  /** Reads up to `dest.length` bytes at `offset`; returns the count or a negative status. */
  read(key: string, offset: number, dest: Uint8Array): number {
    const file = this.file(key);
    if (!file) return STORE_MISSING;
    let fd: number;
    try {
      fd = fs.openSync(file, "r");
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ENOENT" ? STORE_MISSING : STORE_IO_ERROR;
    }
    try {
      return fs.readSync(fd, dest, 0, dest.length, offset);
    } catch {
      return STORE_IO_ERROR;
    } finally {
      fs.closeSync(fd);
    }
  }

  write(key: string, data: Uint8Array): number {
    const file = this.file(key);
    if (!file) return STORE_IO_ERROR;
    const tmp = `${file}.tmp`;
    if (this.full(data.length)) return STORE_FULL;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const fd = fs.openSync(tmp, "w");
      try {
        fs.writeSync(fd, data);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
      syncDir(path.dirname(file));
      return 0;
    } catch (e) {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // not a file we can remove (a directory in the way): the write has failed all the same
      }
      return (e as NodeJS.ErrnoException).code === "ENOSPC" ? STORE_FULL : STORE_IO_ERROR;
    }
  }

  /** Appends to a value (created when missing). Not atomic: a staged value is renamed into place. */
  append(key: string, data: Uint8Array): number {
    const file = this.file(key);
    if (!file) return STORE_IO_ERROR;
    if (this.full(data.length)) return STORE_FULL;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, data);
      return 0;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ENOSPC" ? STORE_FULL : STORE_IO_ERROR;
    }
  }

  /** Replaces `to` with `from` atomically (synced first); `from` is gone after. */
  rename(from: string, to: string): number {
    const src = this.file(from);
    const dst = this.file(to);
    if (!src || !dst) return STORE_IO_ERROR;
    try {
      const fd = fs.openSync(src, "r+");
      try {
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.mkdirSync(path.dirname(dst), { recursive: true });
      fs.renameSync(src, dst);
      syncDir(path.dirname(dst));
      return 0;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === "ENOENT" ? STORE_MISSING : code === "ENOSPC" ? STORE_FULL : STORE_IO_ERROR;
    }
  }

  delete(key: string): number {
    const file = this.file(key);
    if (!file) return STORE_MISSING;
    try {
      fs.unlinkSync(file);
      syncDir(path.dirname(file));
      return 0;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ENOENT" ? STORE_MISSING : STORE_IO_ERROR;
    }
  }

  /** Keys starting with `prefix`, sorted by their bytes (keys are ASCII: the same order), one per line. */
  list(prefix: string): string {
    const keys: string[] = [];
    const walk = (dir: string, rel: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const key = rel + entry.name;
        if (entry.isDirectory()) walk(path.join(dir, entry.name), key + "/");
        else if (KEY.test(key) && !key.endsWith(".tmp") && key.startsWith(prefix)) keys.push(key);
      }
    };
    walk(this.dir, "");
    return keys.sort().join("\n");
  }
}

/** Temporary files a write left behind when the process was killed (`<key>.tmp`): never a value. */
function removeTemporaries(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) removeTemporaries(file);
    else if (entry.name.endsWith(".tmp")) {
      try {
        fs.rmSync(file, { force: true });
      } catch {
        // not removable: a later write of that key fails and says so
      }
    }
  }
}

function syncDir(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
