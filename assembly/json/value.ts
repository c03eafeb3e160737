// A parsed JSON value. Requests are small (bounded by the HTTP body limit), so a tree is simpler
// than a pull parser and is freed as a whole by the collector after each request.

export const J_NULL: u8 = 0;
export const J_BOOL: u8 = 1;
export const J_NUMBER: u8 = 2;
export const J_STRING: u8 = 3;
export const J_ARRAY: u8 = 4;
export const J_OBJECT: u8 = 5;

export class JValue {
  kind: u8 = J_NULL;
  bool: bool = false;
  num: f64 = 0;
  str: string = "";
  items: Array<JValue> | null = null; // array elements, or object values
  keys: Array<string> | null = null; // object keys, parallel to items

  isInteger(): bool {
    return this.kind == J_NUMBER && Math.floor(this.num) == this.num && Math.abs(this.num) <= 9007199254740991;
  }

  /** The member named `key` of an object, or null. */
  get(key: string): JValue | null {
    const keys = this.keys;
    if (!keys) return null;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] == key) return this.items![i];
    }
    return null;
  }

  get length(): i32 {
    const items = this.items;
    return items ? items.length : 0;
  }

  at(i: i32): JValue {
    return this.items![i];
  }

  keyAt(i: i32): string {
    return this.keys![i];
  }
}

/** Human-readable name of a value's kind, for error messages. */
export function kindName(kind: u8): string {
  switch (kind) {
    case J_NULL:
      return "null";
    case J_BOOL:
      return "a boolean";
    case J_NUMBER:
      return "a number";
    case J_STRING:
      return "a string";
    case J_ARRAY:
      return "an array";
  }
  return "an object";
}
