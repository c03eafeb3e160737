// The key-value store of the host ABI as files in a data directory. Writes are atomic: a temp
// file is written and fsynced, then renamed over the old one and the directory fsynced, so a crash
// or a full disk leaves the previous value intact.
import fs from "node:fs";
import path from "node:path";
import { STORE_MISSING, STORE_IO_ERROR, STORE_FULL } from "./abi.js";

const KEY = /^[a-z0-9_-][a-z0-9._-]*(\/[a-z0-9_-][a-z0-9._-]*)?$/;

export class FileStore {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    removeTemporaries(dir);
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

  /** Keys starting with `prefix`, sorted, one per line. */
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
