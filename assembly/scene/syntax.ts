// A streaming well-formedness check for stored scene files, fed a chunk at a time, so that
// GET /api/scenes/{id} can refuse a corrupt file (truncated, garbled, not UTF-8) with a 500 before
// it starts streaming it, without holding the file in memory. The root must be an object; nesting
// is bounded like the reader's. It checks JSON structure and UTF-8 framing, not scene rules: a file
// is only ever written after full validation.
import { MAX_DEPTH } from "../json/reader";

const S_VALUE = 0; // a value is expected
const S_OBJECT_START = 1; // after '{': a key or '}'
const S_ARRAY_START = 2; // after '[': a value or ']'
const S_KEY = 3; // after ',' in an object
const S_COLON = 4;
const S_AFTER = 5; // after a value: ',' or a closing bracket
const S_STRING = 6;
const S_ESCAPE = 7;
const S_HEX = 8;
const S_UTF8 = 9;
const S_NUMBER = 10;
const S_LITERAL = 11;
const S_END = 12; // the root is closed: only whitespace may follow
const S_ERROR = 13;

let state = S_VALUE;
let objects: u32 = 0; // bit d set: level d is an object
let depth = 0;
let inKey = false;
let left = 0; // hex digits or UTF-8 continuation bytes still expected
let literal = "";
let literalAt = 0;

export function syntaxBegin(): void {
  state = S_VALUE;
  objects = 0;
  depth = 0;
  inKey = false;
  left = 0;
}

/** True when everything fed so far formed one complete JSON object. */
export function syntaxEnd(): bool {
  return state == S_END;
}

export function syntaxFeed(p: usize, n: u32): bool {
  for (let i: u32 = 0; i < n && state != S_ERROR; i++) feed(<u32>load<u8>(p + i));
  return state != S_ERROR;
}

function isSpace(c: u32): bool {
  return c == 0x20 || c == 0x0a || c == 0x0d || c == 0x09;
}

function open(isObject: bool): void {
  if (depth >= MAX_DEPTH) {
    state = S_ERROR;
    return;
  }
  if (isObject) objects |= (<u32>1) << depth;
  else objects &= ~((<u32>1) << depth);
  depth++;
  state = isObject ? S_OBJECT_START : S_ARRAY_START;
}

function close(c: u32): void {
  if (depth == 0) {
    state = S_ERROR;
    return;
  }
  const isObject = (objects & ((<u32>1) << (depth - 1))) != 0;
  if ((c == 0x7d) != isObject) {
    state = S_ERROR;
    return;
  }
  depth--;
  valueDone();
}

function valueDone(): void {
  state = depth == 0 ? S_END : S_AFTER;
}

function startValue(c: u32): void {
  if (depth == 0 && c != 0x7b) {
    state = S_ERROR;
    return;
  }
  if (c == 0x7b) open(true);
  else if (c == 0x5b) open(false);
  else if (c == 0x22) {
    inKey = false;
    state = S_STRING;
  } else if (c == 0x2d || (c >= 0x30 && c <= 0x39)) state = S_NUMBER;
  else if (c == 0x74 || c == 0x66 || c == 0x6e) {
    literal = c == 0x74 ? "true" : c == 0x66 ? "false" : "null";
    literalAt = 1;
    state = S_LITERAL;
  } else state = S_ERROR;
}

function feed(c: u32): void {
  switch (state) {
    case S_STRING:
      if (c == 0x22) {
        if (inKey) state = S_COLON;
        else valueDone();
      } else if (c == 0x5c) state = S_ESCAPE;
      else if (c < 0x20) state = S_ERROR;
      else if (c >= 0x80) {
        if (c >= 0xc2 && c <= 0xdf) left = 1;
        else if (c >= 0xe0 && c <= 0xef) left = 2;
        else if (c >= 0xf0 && c <= 0xf4) left = 3;
        else {
          state = S_ERROR;
          return;
        }
        state = S_UTF8;
      }
      return;
    case S_UTF8:
      if ((c & 0xc0) != 0x80) state = S_ERROR;
      else if (--left == 0) state = S_STRING;
      return;
    case S_ESCAPE:
      if (c == 0x75) {
        left = 4;
        state = S_HEX;
      } else if (c == 0x22 || c == 0x5c || c == 0x2f || c == 0x62 || c == 0x66 || c == 0x6e || c == 0x72 || c == 0x74) {
        state = S_STRING;
      } else state = S_ERROR;
      return;
    case S_HEX: {
      const h = c | 0x20;
      if (!((c >= 0x30 && c <= 0x39) || (h >= 0x61 && h <= 0x66))) state = S_ERROR;
      else if (--left == 0) state = S_STRING;
      return;
    }
    case S_LITERAL:
      if (c != <u32>literal.charCodeAt(literalAt)) state = S_ERROR;
      else if (++literalAt == literal.length) valueDone();
      return;
    case S_NUMBER:
      if ((c >= 0x30 && c <= 0x39) || c == 0x2e || c == 0x2d || c == 0x2b || c == 0x65 || c == 0x45) return;
      state = S_AFTER;
      break; // the character ends the number: read it as what follows a value
  }
  if (isSpace(c)) return;
  switch (state) {
    case S_VALUE:
      startValue(c);
      return;
    case S_OBJECT_START:
      if (c == 0x7d) close(c);
      else if (c == 0x22) {
        inKey = true;
        state = S_STRING;
      } else state = S_ERROR;
      return;
    case S_KEY:
      if (c == 0x22) {
        inKey = true;
        state = S_STRING;
      } else state = S_ERROR;
      return;
    case S_ARRAY_START:
      if (c == 0x5d) close(c);
      else startValue(c);
      return;
    case S_COLON:
      state = c == 0x3a ? S_VALUE : S_ERROR;
      return;
    case S_AFTER:
      if (c == 0x2c) state = (objects & ((<u32>1) << (depth - 1))) != 0 ? S_KEY : S_VALUE;
      else if (c == 0x7d || c == 0x5d) close(c);
      else state = S_ERROR;
      return;
  }
  state = S_ERROR; // S_END: only whitespace may follow the root
}
