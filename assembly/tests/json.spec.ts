// The strict JSON reader (json/stream.ts, read from memory): RFC 8259 syntax, nesting at most 16,
// valid UTF-8 only, escapes and surrogate pairs, numbers, the whole input; duplicate keys are
// refused by the field tables (json/check-fields.ts) that know the keys.
import { names } from "../util/names";
import { openMemory, value, skipRest, finish, broken, text, textLength, numberValue } from "../json/stream";
import { errorReason, MAX_DEPTH, J_NULL, J_FALSE, J_TRUE, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } from "../json/reader";
import { checkFields, skipOwn } from "../json/check-fields";
import { resetErrors, validationError } from "../json/validate";

const PARSE_OK = 0;
const PARSE_INVALID = 1;

// The reader reads from the source bytes: keep the current document alive in a global.
let source = new ArrayBuffer(0);
/** The root's kind. */
let root: u32 = 0;

/** Reads the whole document in `source`: PARSE_OK, or PARSE_INVALID when it is refused. A root
 * scalar stays the stream's last value (kind, text, numberValue). */
function scan(): i32 {
  openMemory(changetype<usize>(source), source.byteLength);
  root = value();
  skipRest(root);
  finish();
  return broken ? PARSE_INVALID : PARSE_OK;
}

function parse(s: string): i32 {
  source = String.UTF8.encode(s);
  return scan();
}

function parseBytes(bytes: u8[]): i32 {
  source = new ArrayBuffer(bytes.length);
  for (let i = 0; i < bytes.length; i++) store<u8>(changetype<usize>(source) + i, bytes[i]);
  return scan();
}

/** The root string read last. */
function stringRead(): string {
  return String.UTF8.decodeUnsafe(text, textLength);
}

/** Reads `s` as a document of keys a, b (json/check-fields.ts): the reason it is refused, or "ok". */
const AB = names("a b");
function fields(s: string): string {
  source = String.UTF8.encode(s);
  resetErrors();
  openMemory(changetype<usize>(source), source.byteLength);
  const ok = checkFields(value(), AB, 0, 0, 0, skipOwn, 32);
  return broken ? errorReason() : ok ? "ok" : validationError();
}

/** A JSON string literal around raw UTF-8 bytes: `"` bytes `"`. */
function quoted(bytes: u8[]): u8[] {
  const out: u8[] = [0x22];
  for (let i = 0; i < bytes.length; i++) out.push(bytes[i]);
  out.push(0x22);
  return out;
}

function nested(depth: i32, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

describe("json reader: nesting depth", () => {
  it("allows MAX_DEPTH = 16", () => {
    expect<i32>(MAX_DEPTH).toBe(16);
  });

  it("accepts 16 nested arrays", () => {
    expect<i32>(parse(nested(16, "[", "]", ""))).toBe(PARSE_OK);
  });

  it("rejects 17 nested arrays", () => {
    expect<i32>(parse(nested(17, "[", "]", ""))).toBe(PARSE_INVALID);
  });

  it("accepts 16 nested objects and rejects 17", () => {
    expect<i32>(parse(nested(15, '{"a":', "}", "{}"))).toBe(PARSE_OK);
    expect<i32>(parse(nested(16, '{"a":', "}", "{}"))).toBe(PARSE_INVALID);
  });

  it("counts arrays and objects together", () => {
    expect<i32>(parse(nested(8, '[{"k":', "}]", "1"))).toBe(PARSE_OK);
    expect<i32>(parse(nested(8, '[{"k":', "}]", "[1]"))).toBe(PARSE_INVALID);
  });

  it("counts depth, not the number of containers", () => {
    expect<i32>(parse("[" + "[],".repeat(40) + "[]]")).toBe(PARSE_OK);
  });
});

describe("json reader: objects", () => {
  it("rejects duplicate keys of a field table, also spelled with escapes", () => {
    expect<string>(fields('{"a":1,"a":2}')).toBe("duplicate member name");
    expect<string>(fields('{"a":1,"b":2,"a":3}')).toBe("duplicate member name");
    expect<string>(fields('{"a":1,"\\u0061":2}')).toBe("duplicate member name");
    expect<string>(fields('{"\\u0062":1,"b":2}')).toBe("duplicate member name");
    expect<string>(fields('{"a":{"x":[1,2]},"b":0,"a":null}')).toBe("duplicate member name");
  });

  it("accepts the same key in different objects, and keys that only share a prefix", () => {
    expect<i32>(parse('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}')).toBe(PARSE_OK);
    expect<string>(fields('{"a":1,"b":{"a":2,"a":3}}')).toBe("ok"); // a value the table does not read
    expect<string>(fields('{"a":1,"ab":2}')).toBe("ab: unknown field (accepted: a, b)");
  });

  it("rejects malformed objects", () => {
    expect<i32>(parse('{"a" 1}')).toBe(PARSE_INVALID);
    expect<i32>(parse('{"a":1,}')).toBe(PARSE_INVALID);
    expect<i32>(parse("{a:1}")).toBe(PARSE_INVALID);
    expect<i32>(parse('{"a":1')).toBe(PARSE_INVALID);
    expect<i32>(parse("{1:1}")).toBe(PARSE_INVALID);
  });
});

describe("json reader: UTF-8", () => {
  it("accepts valid 2-, 3- and 4-byte sequences", () => {
    expect<i32>(parseBytes(quoted([0xc3, 0xa9]))).toBe(PARSE_OK); // é
    expect<string>(stringRead()).toBe("é");
    expect<i32>(parseBytes(quoted([0xe2, 0x82, 0xac]))).toBe(PARSE_OK); // €
    expect<string>(stringRead()).toBe("€");
    expect<i32>(parseBytes(quoted([0xf0, 0x9f, 0x98, 0x80]))).toBe(PARSE_OK); // U+1F600
    expect<string>(stringRead()).toBe("\uD83D\uDE00");
    expect<i32>(parseBytes(quoted([0xf4, 0x8f, 0xbf, 0xbf]))).toBe(PARSE_OK); // U+10FFFF
  });

  it("rejects bytes that never start a sequence", () => {
    expect<i32>(parseBytes(quoted([0xff]))).toBe(PARSE_INVALID);
    expect<i32>(parseBytes(quoted([0x80]))).toBe(PARSE_INVALID); // lone continuation byte
    expect<i32>(parseBytes(quoted([0xf5, 0x80, 0x80, 0x80]))).toBe(PARSE_INVALID);
  });

  it("rejects overlong forms", () => {
    expect<i32>(parseBytes(quoted([0xc0, 0xaf]))).toBe(PARSE_INVALID);
    expect<i32>(parseBytes(quoted([0xc1, 0xbf]))).toBe(PARSE_INVALID);
    expect<i32>(parseBytes(quoted([0xe0, 0x80, 0xaf]))).toBe(PARSE_INVALID);
    expect<i32>(parseBytes(quoted([0xf0, 0x80, 0x80, 0xaf]))).toBe(PARSE_INVALID);
  });

  it("rejects encoded surrogates and code points above U+10FFFF", () => {
    expect<i32>(parseBytes(quoted([0xed, 0xa0, 0x80]))).toBe(PARSE_INVALID); // U+D800
    expect<i32>(parseBytes(quoted([0xed, 0xbf, 0xbf]))).toBe(PARSE_INVALID); // U+DFFF
    expect<i32>(parseBytes(quoted([0xf4, 0x90, 0x80, 0x80]))).toBe(PARSE_INVALID); // U+110000
  });

  it("rejects truncated sequences and bad continuation bytes", () => {
    expect<i32>(parseBytes(quoted([0xe2, 0x82]))).toBe(PARSE_INVALID);
    expect<i32>(parseBytes([0x22, 0xe2, 0x82])).toBe(PARSE_INVALID); // ends inside the sequence
    expect<i32>(parseBytes(quoted([0xc3, 0x41]))).toBe(PARSE_INVALID);
    expect<i32>(parseBytes(quoted([0xe2, 0xc2, 0xac]))).toBe(PARSE_INVALID);
  });

  it("rejects raw control characters in strings", () => {
    expect<i32>(parseBytes(quoted([0x61, 0x0a, 0x62]))).toBe(PARSE_INVALID);
    expect<i32>(parseBytes(quoted([0x00]))).toBe(PARSE_INVALID);
    expect<i32>(parseBytes(quoted([0x1f]))).toBe(PARSE_INVALID);
  });

  it("rejects invalid UTF-8 in keys too", () => {
    expect<i32>(parseBytes([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])).toBe(PARSE_INVALID);
  });
});

describe("json reader: escapes and surrogate pairs", () => {
  it("decodes a surrogate pair to one code point", () => {
    expect<i32>(parse('"\\uD83D\\uDE00"')).toBe(PARSE_OK);
    const s = stringRead();
    expect<i32>(s.length).toBe(2);
    expect<i32>(s.codePointAt(0)).toBe(0x1f600);
    expect<string>(s).toBe("\uD83D\uDE00");
  });

  it("decodes pairs in lower case, between other text", () => {
    expect<i32>(parse('"a\\ud83c\\udf08b"')).toBe(PARSE_OK);
    expect<string>(stringRead()).toBe("a\uD83C\uDF08b");
  });

  it("rejects lone and reversed surrogates", () => {
    expect<i32>(parse('"\\uD83D"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\uD83Dx"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\uDE00"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\uDE00\\uD83D"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\uD83D\\u0041"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\uD83D\\uD83D"')).toBe(PARSE_INVALID);
  });

  it("decodes the simple escapes and \\u escapes below U+D800", () => {
    expect<i32>(parse('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC"')).toBe(PARSE_OK);
    expect<string>(stringRead()).toBe('"\\/\b\f\n\r\té€');
  });

  it("rejects unknown escapes and short \\u escapes", () => {
    expect<i32>(parse('"\\x41"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\u12"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\u12G4"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\')).toBe(PARSE_INVALID);
  });

  it("measures unescaped strings in bytes and compares them without allocating", () => {
    expect<i32>(parse('"héllo"')).toBe(PARSE_OK);
    expect<i32>(parse('"hello"')).toBe(PARSE_OK);
  });
});

describe("json reader: numbers", () => {
  it("accepts exponents in every form", () => {
    expect<i32>(parse("[1e3,1E3,1e+3,1e-3,-2.5e-3,0e0,0.5E+2,-0e-0]")).toBe(PARSE_OK);
  });

  it("does not count exponents or fractions as integers", () => {
    expect<i32>(parse("[1e3,1.0,10,-7]")).toBe(PARSE_OK);
  });

  it("reads integers in range, signed and long, and nothing else", () => {
    expect<i32>(parse("[-0,-5,1e2,2.5,9999999999999999,99999999999999999,255,256]")).toBe(PARSE_OK);
  });

  it("rejects incomplete exponents and fractions", () => {
    expect<i32>(parse("1e")).toBe(PARSE_INVALID);
    expect<i32>(parse("1e+")).toBe(PARSE_INVALID);
    expect<i32>(parse("1E-")).toBe(PARSE_INVALID);
    expect<i32>(parse("1.")).toBe(PARSE_INVALID);
    expect<i32>(parse("1.e3")).toBe(PARSE_INVALID);
    expect<i32>(parse(".5")).toBe(PARSE_INVALID);
    expect<i32>(parse("-")).toBe(PARSE_INVALID);
    expect<i32>(parse("+1")).toBe(PARSE_INVALID);
    expect<i32>(parse("1e3.5")).toBe(PARSE_INVALID);
  });

  it("rejects leading zeros", () => {
    expect<i32>(parse("01")).toBe(PARSE_INVALID);
    expect<i32>(parse("00")).toBe(PARSE_INVALID);
    expect<i32>(parse("-01")).toBe(PARSE_INVALID);
    expect<i32>(parse("[01]")).toBe(PARSE_INVALID);
    expect<i32>(parse('{"a":007}')).toBe(PARSE_INVALID);
  });

  it("accepts a single zero, negative zero and zero fractions", () => {
    expect<i32>(parse("0")).toBe(PARSE_OK);
    expect<i32>(parse("-0")).toBe(PARSE_OK);
    expect<i32>(parse("0.05")).toBe(PARSE_OK);
    expect<f64>(numberValue).toBe(0.05);
    expect<i32>(parse("[0,10,100]")).toBe(PARSE_OK);
  });
});

describe("json reader: the whole input", () => {
  it("rejects trailing garbage", () => {
    expect<i32>(parse("{} x")).toBe(PARSE_INVALID);
    expect<i32>(parse("{}}")).toBe(PARSE_INVALID);
    expect<i32>(parse("[1],")).toBe(PARSE_INVALID);
    expect<i32>(parse("1 2")).toBe(PARSE_INVALID);
    expect<i32>(parse("truex")).toBe(PARSE_INVALID);
    expect<i32>(parse('"a""b"')).toBe(PARSE_INVALID);
    expect<i32>(parseBytes([0x7b, 0x7d, 0x00])).toBe(PARSE_INVALID);
  });

  it("allows surrounding whitespace", () => {
    expect<i32>(parse(' \t\r\n{ "a" : [ 1 , 2 ] }\n ')).toBe(PARSE_OK);
  });

  it("rejects empty and truncated documents", () => {
    expect<i32>(parse("")).toBe(PARSE_INVALID);
    expect<i32>(parse("   ")).toBe(PARSE_INVALID);
    expect<i32>(parse("[1,2")).toBe(PARSE_INVALID);
    expect<i32>(parse("nul")).toBe(PARSE_INVALID);
    expect<i32>(parse('"abc')).toBe(PARSE_INVALID);
  });

  it("reads every kind of scalar at the root", () => {
    expect<i32>(parse("null")).toBe(PARSE_OK);
    expect<u32>(root).toBe(J_NULL);
    expect<i32>(parse("false")).toBe(PARSE_OK);
    expect<u32>(root).toBe(J_FALSE);
    expect<i32>(parse("true")).toBe(PARSE_OK);
    expect<u32>(root).toBe(J_TRUE);
    expect<i32>(parse("-12.5")).toBe(PARSE_OK);
    expect<u32>(root).toBe(J_NUMBER);
    expect<i32>(parse('""')).toBe(PARSE_OK);
    expect<u32>(root).toBe(J_STRING);
    expect<i32>(parse("[]")).toBe(PARSE_OK);
    expect<u32>(root).toBe(J_ARRAY);
  });

  it("reads documents of any number of values", () => {
    expect<i32>(parse("[" + "0,".repeat(8000) + "0]")).toBe(PARSE_OK);
  });
});
