// A strict, bounded JSON reader: RFC 8259 syntax, valid UTF-8 only, nesting at most MAX_DEPTH,
// duplicate object keys rejected. Returns null on any error (the caller answers invalid_json).
import { JValue, J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } from "./value";

export const MAX_DEPTH: i32 = 16;

class Reader {
  pos: usize;
  depth: i32 = 0;
  ok: bool = true;
  constructor(
    public start: usize,
    public end: usize,
  ) {
    this.pos = start;
  }

  fail(): JValue {
    this.ok = false;
    return new JValue();
  }

  peek(): u32 {
    return this.pos < this.end ? <u32>load<u8>(this.pos) : 0;
  }

  skipSpace(): void {
    while (this.pos < this.end) {
      const c = load<u8>(this.pos);
      if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) break;
      this.pos++;
    }
  }

  literal(word: string): bool {
    const n = <usize>word.length;
    if (this.pos + n > this.end) return false;
    for (let i: usize = 0; i < n; i++) {
      if (<u32>load<u8>(this.pos + i) != <u32>word.charCodeAt(<i32>i)) return false;
    }
    this.pos += n;
    return true;
  }

  value(): JValue {
    this.skipSpace();
    const c = this.peek();
    const v = new JValue();
    if (c == 0x7b) return this.object();
    if (c == 0x5b) return this.array();
    if (c == 0x22) {
      v.kind = J_STRING;
      v.str = this.string();
      return v;
    }
    if (c == 0x74 || c == 0x66) {
      v.kind = J_BOOL;
      v.bool = c == 0x74;
      if (!this.literal(v.bool ? "true" : "false")) return this.fail();
      return v;
    }
    if (c == 0x6e) {
      if (!this.literal("null")) return this.fail();
      v.kind = J_NULL;
      return v;
    }
    if (c == 0x2d || (c >= 0x30 && c <= 0x39)) {
      v.kind = J_NUMBER;
      v.num = this.number();
      return v;
    }
    return this.fail();
  }

  enter(): bool {
    this.depth++;
    this.pos++;
    return this.depth <= MAX_DEPTH;
  }

  object(): JValue {
    if (!this.enter()) return this.fail();
    const v = new JValue();
    v.kind = J_OBJECT;
    const keys = new Array<string>();
    const items = new Array<JValue>();
    v.keys = keys;
    v.items = items;
    this.skipSpace();
    if (this.peek() == 0x7d) {
      this.pos++;
      this.depth--;
      return v;
    }
    while (this.ok) {
      this.skipSpace();
      if (this.peek() != 0x22) return this.fail();
      const key = this.string();
      if (keys.includes(key)) return this.fail();
      this.skipSpace();
      if (this.peek() != 0x3a) return this.fail();
      this.pos++;
      const item = this.value();
      keys.push(key);
      items.push(item);
      this.skipSpace();
      const c = this.peek();
      this.pos++;
      if (c == 0x7d) break;
      if (c != 0x2c) return this.fail();
    }
    this.depth--;
    return v;
  }

  array(): JValue {
    if (!this.enter()) return this.fail();
    const v = new JValue();
    v.kind = J_ARRAY;
    const items = new Array<JValue>();
    v.items = items;
    this.skipSpace();
    if (this.peek() == 0x5d) {
      this.pos++;
      this.depth--;
      return v;
    }
    while (this.ok) {
      items.push(this.value());
      this.skipSpace();
      const c = this.peek();
      this.pos++;
      if (c == 0x5d) break;
      if (c != 0x2c) return this.fail();
    }
    this.depth--;
    return v;
  }

  digits(): i32 {
    let n = 0;
    while (this.pos < this.end) {
      const c = load<u8>(this.pos);
      if (c < 0x30 || c > 0x39) break;
      this.pos++;
      n++;
    }
    return n;
  }

  number(): f64 {
    const from = this.pos;
    if (this.peek() == 0x2d) this.pos++;
    if (this.peek() == 0x30) this.pos++;
    else if (this.digits() == 0) return this.fail().num;
    if (this.peek() == 0x2e) {
      this.pos++;
      if (this.digits() == 0) return this.fail().num;
    }
    if ((this.peek() | 0x20) == 0x65) {
      this.pos++;
      const s = this.peek();
      if (s == 0x2b || s == 0x2d) this.pos++;
      if (this.digits() == 0) return this.fail().num;
    }
    return parseFloat(String.UTF8.decodeUnsafe(from, this.pos - from));
  }

  hex4(): i32 {
    if (this.pos + 4 > this.end) return -1;
    let v = 0;
    for (let i = 0; i < 4; i++) {
      const c = <i32>load<u8>(this.pos++);
      let d = -1;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) d = (c | 0x20) - 0x57;
      if (d < 0) return -1;
      v = (v << 4) | d;
    }
    return v;
  }

  /** Reads a string token; validates UTF-8 and escapes. */
  string(): string {
    this.pos++; // opening quote
    let out = "";
    let runStart = this.pos;
    while (true) {
      if (this.pos >= this.end) {
        this.ok = false;
        return "";
      }
      const c = <u32>load<u8>(this.pos);
      if (c == 0x22 || c == 0x5c) {
        out += String.UTF8.decodeUnsafe(runStart, this.pos - runStart);
        this.pos++;
        if (c == 0x22) return out;
        const e = this.peek();
        this.pos++;
        if (e == 0x22) out += '"';
        else if (e == 0x5c) out += "\\";
        else if (e == 0x2f) out += "/";
        else if (e == 0x62) out += "\b";
        else if (e == 0x66) out += "\f";
        else if (e == 0x6e) out += "\n";
        else if (e == 0x72) out += "\r";
        else if (e == 0x74) out += "\t";
        else if (e == 0x75) {
          const u = this.hex4();
          if (u < 0) return this.failStr();
          if (u >= 0xd800 && u < 0xdc00) {
            if (!this.literal("\\u")) return this.failStr();
            const low = this.hex4();
            if (low < 0xdc00 || low > 0xdfff) return this.failStr();
            out += String.fromCharCodes([u, low]);
          } else if (u >= 0xdc00 && u <= 0xdfff) {
            return this.failStr();
          } else {
            out += String.fromCharCode(u);
          }
        } else return this.failStr();
        runStart = this.pos;
        continue;
      }
      if (c < 0x20) return this.failStr();
      if (c < 0x80) {
        this.pos++;
        continue;
      }
      const n = utf8SequenceLength(this.pos, this.end);
      if (n == 0) return this.failStr();
      this.pos += n;
    }
  }

  failStr(): string {
    this.ok = false;
    return "";
  }
}

/** Length of the valid UTF-8 sequence at `p`, or 0 (overlong forms, surrogates and > U+10FFFF are invalid). */
function utf8SequenceLength(p: usize, end: usize): u32 {
  const c = <u32>load<u8>(p);
  let n: u32 = 0;
  let min: u32 = 0;
  let cp: u32 = 0;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    min = 0x80;
    cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    min = 0x800;
    cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    min = 0x10000;
    cp = c & 0x07;
  } else return 0;
  if (p + n > end) return 0;
  for (let i: u32 = 1; i < n; i++) {
    const t = <u32>load<u8>(p + i);
    if ((t & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (t & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

/** Parses one JSON document occupying [ptr, ptr+len); null when it is not valid JSON. */
export function parseJson(ptr: usize, len: u32): JValue | null {
  const r = new Reader(ptr, ptr + len);
  const v = r.value();
  r.skipSpace();
  if (!r.ok || r.pos != r.end) return null;
  return v;
}
