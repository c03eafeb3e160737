// The strict JSON reader (json/reader.ts): RFC 8259 syntax, nesting at most 16, no duplicate keys,
// valid UTF-8 only, escapes and surrogate pairs, numbers, and the token tape's accessors.
import {
  parseJson,
  closeJson,
  kindOf,
  sizeOf,
  element,
  member,
  after,
  stringValue,
  stringEquals,
  isInteger,
  numberValue,
  intIn,
  lengthOf,
  PARSE_OK,
  PARSE_INVALID,
  PARSE_TOO_MANY_TOKENS,
  MAX_DEPTH,
  J_NULL,
  J_FALSE,
  J_TRUE,
  J_NUMBER,
  J_STRING,
  J_ARRAY,
  J_OBJECT,
} from "../json/reader";

// The tape points into the source bytes: keep the current document alive in a global.
let source = new ArrayBuffer(0);

function parse(text: string): i32 {
  source = String.UTF8.encode(text);
  return parseJson(changetype<usize>(source), source.byteLength);
}

function parseBytes(bytes: u8[]): i32 {
  source = new ArrayBuffer(bytes.length);
  for (let i = 0; i < bytes.length; i++) store<u8>(changetype<usize>(source) + i, bytes[i]);
  return parseJson(changetype<usize>(source), source.byteLength);
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

afterEach(() => {
  closeJson();
});

describe("parseJson: nesting depth", () => {
  it("allows MAX_DEPTH = 16", () => {
    expect<i32>(MAX_DEPTH).toBe(16);
  });

  it("accepts 16 nested arrays", () => {
    expect<i32>(parse(nested(16, "[", "]", ""))).toBe(PARSE_OK);
    expect<i32>(after(0)).toBe(16);
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
    expect<i32>(sizeOf(0)).toBe(41);
  });
});

describe("parseJson: objects", () => {
  it("rejects duplicate keys", () => {
    expect<i32>(parse('{"a":1,"a":2}')).toBe(PARSE_INVALID);
    expect<i32>(parse('{"a":1,"b":2,"a":3}')).toBe(PARSE_INVALID);
  });

  it("rejects duplicate keys spelled with escapes", () => {
    expect<i32>(parse('{"a":1,"\\u0061":2}')).toBe(PARSE_INVALID);
    expect<i32>(parse('{"\\u0062":1,"b":2}')).toBe(PARSE_INVALID);
  });

  it("finds a duplicate among more keys than the key-hash filter has bits", () => {
    // 100 distinct keys share the filter's 64 bits: collisions must not be taken for duplicates
    let doc = "{";
    for (let i = 0; i < 100; i++) doc += (i > 0 ? "," : "") + '"k' + i.toString() + '":' + i.toString();
    expect<i32>(parse(doc + "}")).toBe(PARSE_OK);
    expect<i32>(sizeOf(0)).toBe(100);
    expect<i32>(parse(doc + ',"k57":0}')).toBe(PARSE_INVALID);
    expect<i32>(parse(doc + ',"k\u0035":0}')).toBe(PARSE_INVALID);
    expect<i32>(parse(doc + ',"k\u0035x":0}')).toBe(PARSE_OK);
  });

  it("rejects duplicates after a nested value", () => {
    expect<i32>(parse('{"a":{"x":[1,2]},"b":0,"a":null}')).toBe(PARSE_INVALID);
  });

  it("accepts the same key in different objects, and keys that only share a prefix", () => {
    expect<i32>(parse('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}')).toBe(PARSE_OK);
    expect<i32>(parse('{"a":1,"ab":2,"A":3}')).toBe(PARSE_OK);
    expect<i32>(sizeOf(0)).toBe(3);
  });

  it("finds members by name", () => {
    expect<i32>(parse('{"x":1,"y":{"z":"w"},"n":null}')).toBe(PARSE_OK);
    expect<u32>(kindOf(0)).toBe(J_OBJECT);
    const y = member(0, "y");
    expect<u32>(kindOf(y)).toBe(J_OBJECT);
    expect<bool>(stringEquals(member(y, "z"), "w")).toBe(true);
    expect<u32>(kindOf(member(0, "n"))).toBe(J_NULL);
    expect<i32>(member(0, "missing")).toBe(-1);
  });

  it("rejects malformed objects", () => {
    expect<i32>(parse('{"a" 1}')).toBe(PARSE_INVALID);
    expect<i32>(parse('{"a":1,}')).toBe(PARSE_INVALID);
    expect<i32>(parse("{a:1}")).toBe(PARSE_INVALID);
    expect<i32>(parse('{"a":1')).toBe(PARSE_INVALID);
    expect<i32>(parse("{1:1}")).toBe(PARSE_INVALID);
  });
});

describe("parseJson: UTF-8", () => {
  it("accepts valid 2-, 3- and 4-byte sequences", () => {
    expect<i32>(parseBytes(quoted([0xc3, 0xa9]))).toBe(PARSE_OK); // é
    expect<string>(stringValue(0)).toBe("é");
    expect<i32>(parseBytes(quoted([0xe2, 0x82, 0xac]))).toBe(PARSE_OK); // €
    expect<string>(stringValue(0)).toBe("€");
    expect<i32>(parseBytes(quoted([0xf0, 0x9f, 0x98, 0x80]))).toBe(PARSE_OK); // U+1F600
    expect<string>(stringValue(0)).toBe("\uD83D\uDE00");
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

describe("parseJson: escapes and surrogate pairs", () => {
  it("decodes a surrogate pair to one code point", () => {
    expect<i32>(parse('"\\uD83D\\uDE00"')).toBe(PARSE_OK);
    const s = stringValue(0);
    expect<i32>(s.length).toBe(2);
    expect<i32>(s.codePointAt(0)).toBe(0x1f600);
    expect<string>(s).toBe("\uD83D\uDE00");
  });

  it("decodes pairs in lower case, between other text", () => {
    expect<i32>(parse('"a\\ud83c\\udf08b"')).toBe(PARSE_OK);
    expect<string>(stringValue(0)).toBe("a\uD83C\uDF08b");
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
    expect<string>(stringValue(0)).toBe('"\\/\b\f\n\r\té€');
  });

  it("rejects unknown escapes and short \\u escapes", () => {
    expect<i32>(parse('"\\x41"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\u12"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\u12G4"')).toBe(PARSE_INVALID);
    expect<i32>(parse('"\\')).toBe(PARSE_INVALID);
  });

  it("measures unescaped strings in bytes and compares them without allocating", () => {
    expect<i32>(parse('"héllo"')).toBe(PARSE_OK);
    expect<u32>(lengthOf(0)).toBe(6);
    expect<bool>(stringEquals(0, "hello")).toBe(false);
    expect<i32>(parse('"hello"')).toBe(PARSE_OK);
    expect<bool>(stringEquals(0, "hello")).toBe(true);
    expect<bool>(stringEquals(0, "hell")).toBe(false);
  });
});

describe("parseJson: numbers", () => {
  it("accepts exponents in every form", () => {
    expect<i32>(parse("[1e3,1E3,1e+3,1e-3,-2.5e-3,0e0,0.5E+2,-0e-0]")).toBe(PARSE_OK);
    expect<f64>(numberValue(element(0, 0))).toBe(1000);
    expect<f64>(numberValue(element(0, 1))).toBe(1000);
    expect<f64>(numberValue(element(0, 2))).toBe(1000);
    expect<f64>(numberValue(element(0, 3))).toBe(0.001);
    expect<f64>(numberValue(element(0, 4))).toBe(-0.0025);
    expect<f64>(numberValue(element(0, 5))).toBe(0);
    expect<f64>(numberValue(element(0, 6))).toBe(50);
  });

  it("does not count exponents or fractions as integers", () => {
    expect<i32>(parse("[1e3,1.0,10,-7]")).toBe(PARSE_OK);
    expect<bool>(isInteger(element(0, 0))).toBe(false);
    expect<bool>(isInteger(element(0, 1))).toBe(false);
    expect<bool>(isInteger(element(0, 2))).toBe(true);
    expect<f64>(numberValue(element(0, 3))).toBe(-7);
    expect<i64>(intIn(element(0, 0), 0, 5000, -1)).toBe(-1);
    expect<i64>(intIn(element(0, 2), 0, 255, -1)).toBe(10);
    expect<i64>(intIn(element(0, 2), 0, 9, -1)).toBe(-1);
  });

  it("reads integers in range, signed and long, and nothing else", () => {
    expect<i32>(parse("[-0,-5,1e2,2.5,9999999999999999,99999999999999999,255,256]")).toBe(PARSE_OK);
    expect<i64>(intIn(element(0, 0), 0, 10, -1)).toBe(0);
    expect<i64>(intIn(element(0, 1), -10, 10, 99)).toBe(-5);
    expect<i64>(intIn(element(0, 1), 0, 10, 99)).toBe(99);
    expect<i64>(intIn(element(0, 2), 0, 1000, -1)).toBe(-1);
    expect<i64>(intIn(element(0, 3), 0, 10, -1)).toBe(-1);
    expect<i64>(intIn(element(0, 4), 0, 9999999999999999, -1)).toBe(9999999999999999);
    expect<i64>(intIn(element(0, 5), 0, 99999999999999999, -1)).toBe(-1); // more than 16 characters
    expect<i64>(intIn(element(0, 6), 0, 255, -1)).toBe(255);
    expect<i64>(intIn(element(0, 7), 0, 255, -1)).toBe(-1);
    expect<i64>(intIn(0, 0, 255, -1)).toBe(-1); // the array itself
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
    expect<f64>(numberValue(0)).toBe(0.05);
    expect<i32>(parse("[0,10,100]")).toBe(PARSE_OK);
  });
});

describe("parseJson: the whole input", () => {
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
    expect<i32>(sizeOf(member(0, "a"))).toBe(2);
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
    expect<u32>(kindOf(0)).toBe(J_NULL);
    expect<i32>(parse("false")).toBe(PARSE_OK);
    expect<u32>(kindOf(0)).toBe(J_FALSE);
    expect<i32>(parse("true")).toBe(PARSE_OK);
    expect<u32>(kindOf(0)).toBe(J_TRUE);
    expect<i32>(parse("-12.5")).toBe(PARSE_OK);
    expect<u32>(kindOf(0)).toBe(J_NUMBER);
    expect<i32>(parse('""')).toBe(PARSE_OK);
    expect<u32>(kindOf(0)).toBe(J_STRING);
    expect<i32>(parse("[]")).toBe(PARSE_OK);
    expect<u32>(kindOf(0)).toBe(J_ARRAY);
    expect<i32>(sizeOf(0)).toBe(0);
  });

  it("reports documents with more than 4096 tokens", () => {
    expect<i32>(parse("[" + "0,".repeat(4095) + "0]")).toBe(PARSE_TOO_MANY_TOKENS);
    expect<i32>(parse("[" + "0,".repeat(4094) + "0]")).toBe(PARSE_OK);
    expect<i32>(sizeOf(0)).toBe(4095);
  });
});
