// The store of the host ABI kept in a Map: the in-core timings then measure the core, not the
// fsync of the file store.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FileStore } from "../host/src/store.js";
import { STORE_MISSING } from "../host/src/abi.js";

export class MemoryStore extends FileStore {
  private readonly values = new Map<string, Uint8Array>();

  constructor() {
    // FileStore wants a directory; an empty temp one that is never written.
    super(fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-store-")));
  }

  override read(key: string, offset: number, dest: Uint8Array): number {
    const value = this.values.get(key);
    if (!value) return STORE_MISSING;
    const part = value.subarray(offset, offset + dest.length);
    dest.set(part);
    return part.length;
  }

  override write(key: string, data: Uint8Array): number {
    this.values.set(key, data.slice());
    return 0;
  }

  override delete(key: string): number {
    return this.values.delete(key) ? 0 : STORE_MISSING;
  }

  override list(prefix: string): string {
    return [...this.values.keys()]
      .filter((k) => k.startsWith(prefix))
      .sort()
      .join("\n");
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
