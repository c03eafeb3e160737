// asc transform (passed by scripts/build.mjs to the controller build only): moves the string
// literals of error and log messages, and of fixed JSON fragments, out of AssemblyScript's
// per-literal UTF-16 objects (a header, two bytes a character, one data segment each) into one
// UTF-8 table. The source is unchanged and still compiles without the transform (as-pect, other
// tooling); either way every message and response is byte-identical (UTF-8 round trip).
//
// Rewrites of the functions the source marks (`@message-args`, `@message-returns`, `@message-raw` in
// the comment above a declaration: see below), a text moving into the table only when it is used
// nowhere else in the controller's sources (else its UTF-16 copy stays anyway):
// - an argument of one of MESSAGE_CALLS that is a `+` chain of literal texts (or of the source's
//   string constants) and at most MAX_ARGS other strings becomes `__messageWith(id, a, b, c)`: its
//   texts are one message of the table whose bytes 1-3 are holes for the other strings, so a failing
//   site makes one call instead of one per text and one per `+` ("must be an integer " + lo.toString()
//   + "-" + hi.toString() is message "must be an integer \x01-\x02" with two arguments);
// - any other string literal argument of one of MESSAGE_CALLS (directly, or inside `+`,
//   parentheses or `?:` of that argument) becomes `__message(id)`, which decodes it. These calls
//   only run on error and log paths, which build strings already; a function that takes a text on
//   the success path too must not be in the list (the checks of scene/ test first and pass the
//   text only to a failing call: `schema >= 3 || tooOld(3, "...")`, `single(...) || bad("...")`);
// - a non-empty string returned by one of RULE_FUNCTIONS ("" when a rule holds, else the message)
//   the same way (a chain as a formatted message too): only failing checks get there;
// - a top-level `const NAME = "..."` used only as such an argument is replaced there the same way;
// - `raw("...")` / `w.raw("...")` (json/writer.ts) becomes `__rawMessage(id)`, which writes the
//   UTF-8 bytes straight into the response: no string, no allocation.
// Before that, in a message argument or a rule function's return, `N.toString()` of an integer
// constant N that the source declares at its top level (`const N = 8`, `const M = N + 1`: literals
// and such constants with + - * <<) or imports by that name from the one source declaring it is
// folded into the text around it ("at most " + N.toString() + " deep" becomes one literal): no
// number formatting or concatenation at run time; a function's own parameter or local of that name
// shadows the constant there and is left alone. (Other integers in messages: util/int-text.ts.)
// The table is compressed with a small dictionary: up to 156 common substrings ("must be ", " or ",
// "schemaVersion"...), each written as one byte that no message holds (a control byte above the
// holes, or a byte 128-255 while the messages are ASCII), expanded again by __message, __messageWith
// and __rawMessage (a build-time check proves every message expands to itself). Its index is the
// length of each entry (a byte) and the start of every fourth (a u16).
// The messages are written to build/messages.txt (one JSON string a line) for inspection.
//
// One more rewrite, of name lists (assembly/util/names.ts): a call `names("a b c")` with one string
// literal becomes `memory.data<u8>([1, 97, 1, 98, 1, 99, 0])`, the list packed at build time (each
// name's byte length, then its UTF-8 bytes; a 0 ends the list), instead of being packed at start-up.
import fs from "node:fs";
import path from "node:path";
import { Transform } from "assemblyscript/transform";
import { compress } from "./dictionary.mjs";
import { Node, NodeKind, LiteralKind, Token, CommonFlags } from "assemblyscript";

/** The most arguments a formatted message takes (__messageWith): its holes are the bytes 1-MAX_ARGS. */
const MAX_ARGS = 3;
/** The first dictionary code byte: the bytes below it are holes. */
const FIRST_CODE = MAX_ARGS + 1;

// The marker: a function whose comment just above its declaration holds
// - `@message-args`: its string literal arguments are messages (it is only called when failing or
//   logging; a call is recognised by the function's name);
// - `@message-returns`: it returns "" when a rule holds and the broken rule's message otherwise, or
//   a fixed text per code (the JSON reader's refusal reasons, the firmware's outcome and state names);
// - `@message-raw`: json/writer.ts raw, whose literal argument is written as UTF-8 bytes;
// - `@message-id NAME`: its parameter NAME only ever reaches messageText (util/message-id.ts) unchanged,
//   so where a call's argument there would become `__message(ID)` it is passed as the table id
//   instead, `changetype<string>(~ID)`: a negative "pointer", which no object has (memory is one
//   page). One call less at each failing site (`i32.const`, then the sink), decoded once in the sink;
// - `@message-decode`: util/message-id.ts messageText, whose body becomes the decoder.
/** Functions recognised by name until their sources carry the marker (files owned by other work
 * this round: json/reader.ts, scene/). */
const UNMARKED_CALLS = ["bad", "badAt", "tooOld"];
const UNMARKED_RETURNS = ["applies", "errorReason"];
/** Filled from the markers (afterParse). */
const MESSAGE_CALLS = new Set(UNMARKED_CALLS);
const RULE_FUNCTIONS = new Set(UNMARKED_RETURNS);
const RAW_CALLS = new Set();
/** `@message-id NAME`: by function name, the index of its parameter NAME per declaring source. */
const ID_PARAMS = new Map();
const DECODERS = new Set();
/** The names of the functions each source declares at its top level (a call there means its own). */
const DECLARED = new Map();

/** The comment lines just above a top-level declaration, as one text. */
function leadingComment(source, node) {
  const lines = source.text.slice(0, node.range.start).split("\n");
  lines.pop(); // the declaration's own line, up to it ("export ")
  const out = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = lines[i].trim();
    if (!(t.startsWith("//") || t.startsWith("/*") || t.startsWith("*"))) break;
    out.push(t);
  }
  return out.join("\n");
}

/** Adds the marked functions of one source to the sets above. */
function collectMarkers(source) {
  DECLARED.set(source, new Set());
  for (const st of source.statements) {
    if (st.kind !== NodeKind.FunctionDeclaration) continue;
    DECLARED.get(source).add(st.name.text);
    const comment = leadingComment(source, st);
    if (comment.includes("@message-args")) MESSAGE_CALLS.add(st.name.text);
    if (comment.includes("@message-returns")) RULE_FUNCTIONS.add(st.name.text);
    if (comment.includes("@message-raw")) RAW_CALLS.add(st.name.text).add("." + st.name.text);
    const id = /@message-id (\w+)/.exec(comment);
    if (id) {
      const i = st.signature.parameters.findIndex((p) => p.name.text === id[1]);
      if (i < 0) throw new Error(`${source.normalizedPath}: ${st.name.text} has no parameter ${id[1]}`);
      if (!ID_PARAMS.has(st.name.text)) ID_PARAMS.set(st.name.text, new Map());
      ID_PARAMS.get(st.name.text).set(source, { i, exported: (st.flags & CommonFlags.Export) !== 0 });
    }
    if (comment.includes("@message-decode")) DECODERS.add(st);
  }
}
const GENERATED = "assembly/generated/messages.ts";

/** Every AST child of `node` as [holder, key, child] (arrays flattened), skipping back references. */
function* children(node) {
  for (const key of Object.keys(node)) {
    if (key === "range" || key === "parent") continue;
    const v = node[key];
    if (v instanceof Node) yield [node, key, v];
    else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) if (v[i] instanceof Node) yield [v, i, v[i]];
  }
}

const isString = (n) => n.kind === NodeKind.Literal && n.literalKind === LiteralKind.String;
const isIdent = (n) => n.kind === NodeKind.Identifier;
function calleeName(call) {
  const e = call.expression;
  if (isIdent(e)) return e.text;
  if (e.kind === NodeKind.PropertyAccess && isIdent(e.expression)) return "." + e.property.text;
  return null;
}
const isMessageCall = (n) => n.kind === NodeKind.Call && MESSAGE_CALLS.has(calleeName(n));
const isRawCall = (n) =>
  n.kind === NodeKind.Call && RAW_CALLS.has(calleeName(n)) && n.args.length === 1 && isString(n.args[0]);

/** Message slots inside a message call's argument: [holder, key] of literals and identifiers. */
function messageSlots(holder, key, node, out) {
  if (isString(node) || isIdent(node)) out.push([holder, key]);
  else if (node.kind === NodeKind.Binary && node.operator === Token.Plus) {
    messageSlots(node, "left", node.left, out);
    messageSlots(node, "right", node.right, out);
  } else if (node.kind === NodeKind.Parenthesized) messageSlots(node, "expression", node.expression, out);
  else if (node.kind === NodeKind.Ternary) {
    messageSlots(node, "ifThen", node.ifThen, out);
    messageSlots(node, "ifElse", node.ifElse, out);
  }
  return out;
}

/** The integer constants a source declares at its top level (`const N = 8`, `export const N: u32 =
 * 8`, `const M = N + 1` of such constants), by name, as their initializers (see constantValue). */
function integerConstants(source) {
  const out = new Map();
  for (const st of source.statements) {
    if (st.kind !== NodeKind.Variable) continue;
    for (const d of st.declarations) {
      if (d.flags & CommonFlags.Const && d.initializer) out.set(d.name.text, d.initializer);
    }
  }
  return out;
}

/** The value of an integer constant's initializer (a literal, a constant it names, `+ - * <<` of
 * those, parentheses, a type assertion) as a BigInt, or undefined when it is something else. */
function constantValue(node, lookup, seen = new Set()) {
  switch (node.kind) {
    case NodeKind.Literal:
      return node.literalKind === LiteralKind.Integer ? BigInt(i64_to_string(node.value)) : undefined;
    case NodeKind.Parenthesized:
      return constantValue(node.expression, lookup, seen);
    case NodeKind.Assertion:
      return constantValue(node.expression, lookup, seen);
    case NodeKind.Identifier: {
      if (seen.has(node.text)) return undefined;
      const init = lookup(node.text);
      return init ? constantValue(init, lookup, new Set(seen).add(node.text)) : undefined;
    }
    case NodeKind.Binary: {
      const a = constantValue(node.left, lookup, seen);
      const b = constantValue(node.right, lookup, seen);
      if (a === undefined || b === undefined) return undefined;
      if (node.operator === Token.Plus) return a + b;
      if (node.operator === Token.Minus) return a - b;
      if (node.operator === Token.Asterisk) return a * b;
      if (node.operator === Token.LessThan_LessThan) return a << b;
      return undefined;
    }
  }
  return undefined;
}

/** The constants a message of `source` may fold, as decimal text: its own, and those it imports by a
 * name that only one source declares (each evaluated where it is declared). */
function foldable(source, declared) {
  const lookupIn = (src) => (name) => {
    const own = declared.get(src).get(name);
    if (own) return own;
    const from = [...declared.entries()].filter(([, m]) => m.has(name));
    return from.length === 1 ? from[0][1].get(name) : undefined;
  };
  const consts = new Map();
  const add = (name, init, src) => {
    const v = constantValue(init, lookupIn(src));
    if (v !== undefined) consts.set(name, v.toString());
  };
  for (const [name, init] of declared.get(source)) add(name, init, source);
  for (const st of source.statements) {
    if (st.kind !== NodeKind.Import || !st.declarations) continue;
    for (const d of st.declarations) {
      const name = d.foreignName.text;
      const from = [...declared.entries()].filter(([, m]) => m.has(name));
      if (from.length === 1 && d.name.text === name) add(name, from[0][1].get(name), from[0][0]);
    }
  }
  return consts;
}

/** A message argument with `N.toString()` of an integer constant folded into its text, and literals
 * then side by side joined: "at most " + MAX.toString() + " deep" is one text, "at most 4 deep". */
function fold(node, consts) {
  const e = node.kind === NodeKind.Call && node.args.length === 0 ? node.expression : null;
  if (e && e.kind === NodeKind.PropertyAccess && e.property.text === "toString" && isIdent(e.expression)) {
    const text = consts.get(e.expression.text);
    if (text !== undefined) return Node.createStringLiteralExpression(text, node.range);
  }
  if (node.kind === NodeKind.Parenthesized) node.expression = fold(node.expression, consts);
  else if (node.kind === NodeKind.Ternary) {
    node.ifThen = fold(node.ifThen, consts);
    node.ifElse = fold(node.ifElse, consts);
  } else if (node.kind === NodeKind.Binary && node.operator === Token.Plus) {
    node.left = fold(node.left, consts);
    node.right = fold(node.right, consts);
    const join = (a, b) => Node.createStringLiteralExpression(a.value + b.value, node.range);
    if (isString(node.left) && isString(node.right)) return join(node.left, node.right);
    const l = node.left;
    if (l.kind === NodeKind.Binary && l.operator === Token.Plus && isString(l.right) && isString(node.right)) {
      l.right = join(l.right, node.right); // (x + "a") + "b" is x + "ab"
      return l;
    }
  }
  return node;
}

/** The names a function declares: its parameters and every variable in its body. */
function localNames(fn, out = new Set()) {
  for (const p of fn.signature?.parameters ?? []) out.add(p.name.text);
  (function scan(node) {
    if (node.kind === NodeKind.VariableDeclaration) out.add(node.name.text);
    for (const [, , child] of children(node)) scan(child);
  })(fn.body ?? fn);
  return out;
}

/** Folds the integer constants in the message arguments of one source, and in what its rule
 * functions return; inside a function, not a name it declares itself (a local that shadows a
 * constant keeps its own value). */
function foldMessages(source, consts) {
  (function scan(node, names, rule) {
    if (node.kind === NodeKind.FunctionDeclaration || node.kind === NodeKind.Function) {
      rule = node.kind === NodeKind.FunctionDeclaration && RULE_FUNCTIONS.has(node.name.text);
      const shadowed = [...localNames(node)].filter((n) => names.has(n));
      if (shadowed.length > 0) {
        names = new Map(names);
        for (const n of shadowed) names.delete(n);
      }
    }
    if (isMessageCall(node)) node.args = node.args.map((a) => fold(a, names));
    if (rule && node.kind === NodeKind.Return && node.value) node.value = fold(node.value, names);
    for (const [, , child] of children(node)) scan(child, names, rule);
  })(source, consts, false);
}

/** The pieces of a `+` chain (through parentheses), or null when `node` is not one. */
function chain(node) {
  while (node.kind === NodeKind.Parenthesized) node = node.expression;
  if (node.kind !== NodeKind.Binary || node.operator !== Token.Plus) return null;
  return [node.left, node.right].flatMap((n) => chain(n) ?? [n]);
}

/** A text that survives UTF-8 (no lone surrogates). */
const utf8Safe = (text) => Buffer.from(text, "utf8").toString("utf8") === text;

/**
 * A message argument at holder[key]: a `+` chain of literal texts (or this source's string constants)
 * and at most MAX_ARGS other strings becomes one formatted message (found.formats, see
 * __messageWith); anything else gives its message slots (messageSlots). `nonEmpty`: only non-empty
 * literals are messages (a rule function's "" means that the rule holds).
 */
function messageArg(holder, key, node, found, nonEmpty = false) {
  const pieces = chain(node);
  const text = (p) =>
    isString(p) ? p.value : isIdent(p) && found.consts.has(p.text) ? found.consts.get(p.text) : null;
  if (pieces) {
    const args = pieces.filter((p) => text(p) === null);
    const plain = (t) => utf8Safe(t) && ![...t].some((ch) => ch.charCodeAt(0) < FIRST_CODE); // no hole byte
    if (args.length <= MAX_ARGS && pieces.every((p) => text(p) === null || plain(text(p)))) {
      const format = { holder, key, pieces, text, args: [...args] };
      format.args.forEach((a, i) => messageSlots(format.args, i, a, found.slots));
      found.formats.push(format);
      return;
    }
  }
  for (const [h, k] of messageSlots(holder, key, node, []))
    if (!nonEmpty || !isString(h[k]) || h[k].value !== "") found.slots.push([h, k]);
}

/** The string returns in `node` as message arguments (nested functions excluded). */
function returns(node, found) {
  if (node.kind === NodeKind.FunctionDeclaration || node.kind === NodeKind.Function) return;
  if (node.kind === NodeKind.Return && node.value) return messageArg(node, "value", node.value, found, true);
  for (const [, , child] of children(node)) returns(child, found);
}

/** One source: its message slots and formats, raw calls, string literal uses and identifier uses. */
function scanSource(source) {
  const found = { source, slots: [], formats: [], raws: [], texts: new Map(), idents: new Map(), consts: new Map() };
  // top-level `const NAME = "..."`: the declaration's own name is not a use
  for (const st of source.statements) {
    if (st.kind !== NodeKind.Variable) continue;
    for (const d of st.declarations) {
      if (d.flags & CommonFlags.Const && !(d.flags & CommonFlags.Export) && d.initializer && isString(d.initializer)) {
        found.consts.set(d.name.text, d.initializer.value); // its name counts in idents: uses = count - 1
      }
    }
  }
  const count = (map, k) => map.set(k, (map.get(k) ?? 0) + 1);
  (function scan(node, holder, key) {
    if (isString(node)) count(found.texts, node.value);
    else if (isIdent(node)) count(found.idents, node.text);
    if (isMessageCall(node)) node.args.forEach((a, i) => messageArg(node.args, i, a, found));
    if (isRawCall(node)) found.raws.push([holder, key]);
    if (node.kind === NodeKind.FunctionDeclaration && RULE_FUNCTIONS.has(node.name.text) && node.body)
      returns(node.body, found);
    // offsetof<T>("field") names a field at compile time: its literal is no string in the image
    if (node.kind === NodeKind.Call && calleeName(node) === "offsetof") return;
    for (const [h, k, child] of children(node)) scan(child, h, k);
  })(source, null, null);
  return found;
}

/**
 * A dictionary for the table: up to 156 substrings (of messages and of earlier entries), each
 * replaced by one code byte, the commonest savings first ("must be ", " or ", "schemaVersion"...):
 * a control byte FIRST_CODE-31 that no message holds (entry c - FIRST_CODE), and, while every
 * message is ASCII, a byte 128-255 (entry c - 96 - FIRST_CODE). No entry holds a hole.
 * scripts/dictionary.mjs proves that every message expands to itself.
 */
const SCRATCH_CAP = 256; // the longest message is ~100 bytes; checked below
/** Where an entry starts is kept for every STRIDE-th one (a u16), and the length of each (a u8): an
 * entry's start is the sum of at most STRIDE - 1 lengths after that (1.5 B an entry instead of 2).
 * Measured under WAMR classic: 8 saves 100 B more but costs GET /api/scenes 2% (raw JSON fragments
 * and their dictionary entries are looked up on that path), 4 about 1%. */
const STRIDE = 4;
const entryOf = (c) => (c >= FIRST_CODE && c < 32 ? c - FIRST_CODE : c >= 128 ? c - 96 - FIRST_CODE : -1);
const expandedLength = (t, dictionary) =>
  [...t].reduce((n, ch) => {
    const e = entryOf(ch.charCodeAt(0));
    return n + (e >= 0 && e < dictionary.length ? expandedLength(dictionary[e], dictionary) : 1);
  }, 0);

function tableSource(messages) {
  const [texts, dictionary] = compress(
    messages.map((m) => Buffer.from(m, "utf8").toString("latin1")),
    FIRST_CODE,
    true,
    2, // two-byte substrings too ("e ", " a"), and every code while an entry saves a byte: the
    0, // table is read on failing and logging paths (and a few raw JSON fragments), -345 B
  );
  const high = dictionary.length > 32 - FIRST_CODE; // code bytes 128-255 too: no message holds one
  for (const t of texts)
    if (expandedLength(t, dictionary) > SCRATCH_CAP) throw new Error("message over the scratch buffer");
  while (dictionary.length > 0 && dictionary[dictionary.length - 1] === "") dictionary.pop(); // codes unused
  const all = [...texts, ...dictionary];
  const bytes = [];
  const at = [];
  for (let i = 0; i < all.length; i++) {
    if (i % STRIDE === 0) at.push(bytes.length);
    if (all[i].length > 255) throw new Error("message table: an entry over 255 bytes");
    bytes.push(...Buffer.from(all[i], "latin1"));
  }
  if (bytes.length > 0xffff) throw new Error("message table over 64 KiB");
  // the index as expand() reads it finds every entry
  for (let id = 0, start = 0; id < all.length; start += all[id++].length) {
    let p = at[id >> Math.log2(STRIDE)];
    for (let i = id & ~(STRIDE - 1); i < id; i++) p += all[i].length;
    if (p !== start) throw new Error(`message table: entry ${id} is not at ${p}`);
  }
  return [
    "// Generated at build time by scripts/messages-transform.mjs: the UTF-8 message table (TEXT, with",
    `// each entry's LENGTH and where every ${STRIDE}th one starts, AT). A byte`,
    `// ${FIRST_CODE}-31 stands for dictionary entry DICT + byte - ${FIRST_CODE} (a common substring; entries may nest),`,
    `// and, when the messages are all ASCII, a byte 128-255 for entry DICT + byte - ${96 + FIRST_CODE}. A byte`,
    `// 1-${MAX_ARGS} of a message is a hole, filled by __messageWith.`,
    'import { byte } from "../json/writer";',
    'import { utf8Decode } from "../util/utf8";',
    `const TEXT = memory.data<u8>([${bytes.join(",")}]);`,
    `const LENGTH = memory.data<u8>([${all.map((t) => t.length).join(",")}]);`,
    `const AT = memory.data<u16>([${at.join(",")}]);`,
    `const DICT = ${texts.length};`,
    `const SCRATCH_CAP = ${SCRATCH_CAP};`,
    "const scratch = memory.data(SCRATCH_CAP);",
    "/** Entry `id` expanded from `at` of the scratch buffer, or (`raw`) into the JSON response; the end. */",
    "function expand(id: i32, raw: bool, at: usize): usize {",
    `  let p = <usize>load<u16>(AT + ((<usize>id >> ${Math.log2(STRIDE)}) << 1));`,
    `  for (let i = <usize>id & ~${STRIDE - 1}; i < <usize>id; i++) p += <usize>load<u8>(LENGTH + i);`,
    "  for (const end = p + <usize>load<u8>(LENGTH + id); p < end; p++) {",
    "    const c = load<u8>(TEXT + p);",
    high
      ? `    if (c >= ${FIRST_CODE} && (c < 32 || c >= 128)) at = expand(DICT + <i32>c - (c < 32 ? ${FIRST_CODE} : ${96 + FIRST_CODE}), raw, at);`
      : `    if (c >= ${FIRST_CODE} && c < 32) at = expand(DICT + <i32>c - ${FIRST_CODE}, raw, at);`,
    "    else if (raw) byte(c);",
    "    else if (at < <usize>SCRATCH_CAP) store<u8>(scratch + at++, c);",
    "  }",
    "  return at;",
    "}",
    "/** Message `id` of the table as a string. */",
    "// @ts-ignore: decorator",
    "@global export function __message(id: i32): string {",
    "  return utf8Decode(scratch, expand(id, false, 0));",
    "}",
    "/** A message argument of a `@message-id` function: message `~p` of the table when its pointer p is",
    " * negative (no object is: memory is one page), else the string itself. */",
    "// @ts-ignore: decorator",
    "@global export function __messageText(text: string): string {",
    "  const p = <i32>changetype<usize>(text);",
    "  return p < 0 ? __message(~p) : text;",
    "}",
    "/** Message `id` of the table written into the JSON response as it is (writer.raw). */",
    "// @ts-ignore: decorator",
    "@global export function __rawMessage(id: i32): void {",
    "  expand(id, true, 0);",
    "}",
    "/** Message `id` with its holes filled: hole k (byte k) by argument k (null: not a hole of this",
    ' * message). One call instead of the concatenations of `"a " + x + " b"` at a failing site. */',
    "// @ts-ignore: decorator",
    "@global export function __messageWith(id: i32, a: string, b: string | null, c: string | null): string {",
    "  const end = scratch + expand(id, false, 0);",
    '  let out = "";',
    "  for (let p = scratch, q = scratch; ; p = ++q) {",
    `    while (q < end && load<u8>(q) >= ${FIRST_CODE}) q++;`,
    "    out += utf8Decode(p, q - p);",
    "    if (q == end) break;",
    "    const hole = load<u8>(q);",
    "    out += changetype<string>(hole == 1 ? a : hole == 2 ? b : c);",
    "  }",
    "  return out;",
    "}",
    "",
  ].join("\n");
}

/** The packed bytes of a name list's literal (assembly/util/names.ts). */
export function packNames(list) {
  const bytes = [];
  for (const name of list.split(" ")) {
    const b = Buffer.from(name, "utf8");
    if (b.length < 1 || b.length > 255) throw new Error(`names("${list}"): a name of ${b.length} bytes`);
    bytes.push(b.length, ...b);
  }
  bytes.push(0);
  return bytes;
}

/** Rewrites every `names("...")` call of one source into `memory.data<u8>([...])`. */
function packNameLists(source) {
  (function scan(node) {
    for (const [h, k, child] of children(node)) {
      if (child.kind === NodeKind.Call && calleeName(child) === "names" && child.args.length === 1) {
        const arg = child.args[0];
        if (!isString(arg)) throw new Error(`${source.normalizedPath}: names() takes one string literal`);
        const r = child.range;
        const id = (t) => Node.createIdentifierExpression(t, r);
        const bytes = packNames(arg.value).map((b) => Node.createIntegerLiteralExpression(i64_new(b, 0), r));
        h[k] = Node.createCallExpression(
          Node.createPropertyAccessExpression(id("memory"), id("data"), r),
          [Node.createNamedType(Node.createSimpleTypeName("u8", r), null, false, r)],
          [Node.createArrayLiteralExpression(bytes, r)],
          r,
        );
      } else scan(child);
    }
  })(source);
}

/** The index of the `@message-id` parameter of a call `name(...)` in `source`: its own declaration's,
 * else the one all exported declarations agree on (another source's private one is not this). */
function idParam(name, source) {
  const bySource = ID_PARAMS.get(name);
  if (!bySource) return -1;
  if (bySource.has(source)) return bySource.get(source).i;
  if (DECLARED.get(source)?.has(name)) return -1; // its own, unmarked
  const at = new Set([...bySource.values()].filter((d) => d.exported).map((d) => d.i));
  return at.size === 1 ? [...at][0] : -1;
}

/** `__message(ID)` (a call the rewrites above made), else null. */
function messageId(node) {
  if (node.kind !== NodeKind.Call || !isIdent(node.expression) || node.expression.text !== "__message") return null;
  return node.args[0];
}

/** In the `@message-id` argument of every call of one source, each `__message(ID)` (directly, or in
 * parentheses or `?:`) becomes `changetype<string>(~ID)`, the id the sink's messageText decodes. */
function passIds(source) {
  const rewrite = (holder, key) => {
    const n = holder[key];
    const id = messageId(n);
    if (id) {
      const r = n.range;
      const minus = Node.createIntegerLiteralExpression(i64_new(-1 - i64_low(id.value), -1), r);
      const type = Node.createNamedType(Node.createSimpleTypeName("string", r), null, false, r);
      holder[key] = Node.createCallExpression(Node.createIdentifierExpression("changetype", r), [type], [minus], r);
    } else if (n.kind === NodeKind.Parenthesized) rewrite(n, "expression");
    else if (n.kind === NodeKind.Ternary) {
      rewrite(n, "ifThen");
      rewrite(n, "ifElse");
    }
  };
  (function scan(node) {
    if (node.kind === NodeKind.Call) {
      const name = calleeName(node);
      const i = name === null ? -1 : idParam(name, source);
      if (i >= 0 && i < node.args.length) rewrite(node.args, i);
    }
    for (const [, , child] of children(node)) scan(child);
  })(source);
}

/** The body of a `@message-decode` function `(text: string): string`: `return __messageText(text)`. */
function decoderBody(fn) {
  const r = fn.range;
  const param = fn.signature.parameters[0].name.text;
  const call = Node.createCallExpression(
    Node.createIdentifierExpression("__messageText", r),
    null,
    [Node.createIdentifierExpression(param, r)],
    r,
  );
  fn.body = Node.createBlockStatement([Node.createReturnStatement(call, r)], r);
}

export default class MessagesTransform extends Transform {
  afterParse(parser) {
    const sources = parser.sources.filter(
      (s) => s.normalizedPath.startsWith("assembly/") && !s.normalizedPath.startsWith("assembly/panel/"),
    );
    for (const s of sources) if (s.normalizedPath !== "assembly/util/names.ts") packNameLists(s);
    for (const s of sources) collectMarkers(s);
    const declared = new Map(sources.map((s) => [s, integerConstants(s)]));
    for (const s of sources) foldMessages(s, foldable(s, declared));
    const scans = sources.map(scanSource);
    // Literal uses over all sources, and how many of them a rewrite would take over.
    const uses = new Map();
    const taken = new Map();
    const add = (map, k) => map.set(k, (map.get(k) ?? 0) + 1);
    for (const f of scans) {
      for (const [k, n] of f.texts) uses.set(k, (uses.get(k) ?? 0) + n);
      for (const [h, k] of f.slots) if (isString(h[k])) add(taken, h[k].value);
      for (const [h, k] of f.raws) add(taken, h[k].args[0].value);
      for (const { pieces } of f.formats) for (const p of pieces) if (isString(p)) add(taken, p.value);
    }
    const ids = new Map();
    const idOf = (text) => {
      if (!ids.has(text)) ids.set(text, ids.size);
      return ids.get(text);
    };
    // every use is taken over, and the text survives UTF-8 (no lone surrogates)
    const own = (text) => taken.get(text) === uses.get(text) && utf8Safe(text);
    const call = (name, text, r) =>
      Node.createCallExpression(
        Node.createIdentifierExpression(name, r),
        null,
        [Node.createIntegerLiteralExpression(i64_new(idOf(text), 0), r)],
        r,
      );
    for (const f of scans) {
      // constants used only in message slots (and formats) of this source
      const constSlots = new Map();
      for (const [h, k] of f.slots) if (isIdent(h[k]) && f.consts.has(h[k].text)) add(constSlots, h[k].text);
      const moved = new Set();
      for (const { pieces } of f.formats)
        for (const p of pieces) if (isIdent(p) && f.consts.has(p.text)) add(constSlots, p.text);
      for (const { holder, key, pieces, text, args } of f.formats) {
        let hole = 0;
        const template = pieces.map((p) => text(p) ?? String.fromCharCode(++hole)).join("");
        const r = holder[key].range;
        const nulls = Array.from({ length: MAX_ARGS - args.length }, () => Node.createNullExpression(r));
        const id = Node.createIntegerLiteralExpression(i64_new(idOf(template), 0), r);
        const callee = Node.createIdentifierExpression("__messageWith", r);
        holder[key] = Node.createCallExpression(callee, null, [id, ...args, ...nulls], r);
      }
      const allTaken = (name) => constSlots.get(name) === f.idents.get(name) - 1;
      for (const { pieces } of f.formats)
        for (const p of pieces) if (isIdent(p) && f.consts.has(p.text) && allTaken(p.text)) moved.add(p.text);
      for (const [h, k] of f.slots) {
        const n = h[k];
        if (isString(n) && own(n.value)) h[k] = call("__message", n.value, n.range);
        else if (isIdent(n) && f.consts.has(n.text) && allTaken(n.text)) {
          h[k] = call("__message", f.consts.get(n.text), n.range);
          moved.add(n.text);
        }
      }
      // a constant whose every use moved to the table goes (top-level constants compile eagerly)
      for (const st of f.source.statements)
        if (st.kind === NodeKind.Variable) st.declarations = st.declarations.filter((d) => !moved.has(d.name.text));
      f.source.statements = f.source.statements.filter(
        (st) => st.kind !== NodeKind.Variable || st.declarations.length > 0,
      );
      for (const [h, k] of f.raws) {
        const text = h[k].args[0].value;
        if (own(text)) h[k] = call("__rawMessage", text, h[k].range);
      }
    }
    for (const f of scans) passIds(f.source);
    for (const fn of DECODERS) decoderBody(fn);
    const messages = [...ids.keys()];
    parser.parseFile(tableSource(messages), GENERATED, false);
    const out = path.join(this.baseDir, "build/messages.txt");
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, messages.map((m) => JSON.stringify(m)).join("\n") + "\n");
  }
}
