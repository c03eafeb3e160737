// The message table's `@message-id` marker (scripts/messages-transform.mjs): a literal message
// argument of a marked parameter is passed as its table id, `changetype<string>(~id)`, and the sink's
// messageText (assembly/util/message-id.ts, `@message-decode`) turns it back into the same text; any
// other string there arrives as it is. `N.toString()` of an integer constant (or of a constant
// expression) in a message, or in what a rule function returns, is folded into its text.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import asc from "assemblyscript/asc";
import { ROOT } from "./helpers/host.js";

const PROGRAM = `
import { messageText } from "./util/message-id";
let last = "";
/** @message-args; @message-id rule */
function sink(n: i32, rule: string): bool {
  last = messageText(rule);
  return n < 0;
}
/** Not marked: its literal stays a string. */
function other(rule: string): void {
  last = rule;
}
export function literal(): string { sink(1, "plain é"); return last; }
export function choice(k: i32): string { sink(2, k > 0 ? "positive" : "not positive"); return last; }
export function formatted(k: i32): string { sink(3, "n=" + k.toString() + "!"); return last; }
export function unmarked(): string { other("kept"); return last; }
const BASE = 8;
const CAP: u32 = (BASE << 2) + 1;
export function folded(): string { sink(4, "at most " + CAP.toString() + " of " + BASE.toString()); return last; }
/** @message-returns */
function rule(n: i32): string {
  return n > <i32>CAP ? "over " + CAP.toString() : "";
}
export function ruleText(n: i32): string { return rule(n); }
`;

/** Compiles PROGRAM with the transform (optimised or not): its instance's exports and its text. */
async function build(optimize: boolean): Promise<[Record<string, any>, string]> {
  const files: Record<string, Uint8Array | string> = {};
  const sources: Record<string, string> = {
    "assembly/main.ts": PROGRAM,
    "assembly/util/message-id.ts": fs.readFileSync(path.join(ROOT, "assembly/util/message-id.ts"), "utf8"),
    "assembly/util/utf8.ts": fs.readFileSync(path.join(ROOT, "assembly/util/utf8.ts"), "utf8"), // the table's decoder
    "assembly/json/writer.ts": "export function byte(c: u8): void {}",
  };
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "messages-")); // the transform's build/messages.txt
  const result = await asc.main(
    [
      "assembly/main.ts",
      "--baseDir",
      base,
      "--outFile",
      "m.wasm",
      "--textFile",
      "m.wat",
      "--runtime",
      "stub",
      ...(optimize ? ["--optimizeLevel", "3", "--shrinkLevel", "2", "--noAssert"] : ["--debug"]),
      "--transform",
      path.join(ROOT, "scripts/messages-transform.mjs"),
    ],
    {
      readFile: (name: string) => sources[name.replace(/\\/g, "/")] ?? null,
      writeFile: (name: string, contents: Uint8Array | string) => {
        files[name] = contents;
      },
      listFiles: () => [],
    },
  );
  fs.rmSync(base, { recursive: true, force: true });
  assert.equal(result.error, null, String(result.stderr));
  const { instance } = await WebAssembly.instantiate(Buffer.from(files["m.wasm"] as Uint8Array), {
    env: { abort: () => assert.fail("abort") },
  });
  return [instance.exports as Record<string, any>, String(files["m.wat"])];
}

/** A string of the module's memory (UTF-16, its byte length just before it). */
function text(e: Record<string, any>, p: number): string {
  const bytes = Buffer.from((e.memory as WebAssembly.Memory).buffer);
  return bytes.subarray(p, p + bytes.readUInt32LE(p - 4)).toString("utf16le");
}

/** The body of function `name` in a module's text. */
function body(wat: string, name: string): string {
  const at = wat.indexOf(`(func $assembly/main/${name} `);
  assert.ok(at >= 0, `no function ${name}`);
  return wat.slice(at, wat.indexOf("\n (func", at + 1));
}

for (const optimize of [false, true]) {
  test(`@message-id passes a literal message as its id, decoded to the same text (${optimize ? "release" : "debug"})`, async () => {
    const [e, wat] = await build(optimize);
    assert.equal(text(e, e.literal()), "plain é");
    assert.equal(text(e, e.choice(1)), "positive");
    assert.equal(text(e, e.choice(0)), "not positive");
    assert.equal(text(e, e.formatted(42)), "n=42!");
    assert.equal(text(e, e.unmarked()), "kept");
    assert.equal(text(e, e.folded()), "at most 33 of 8");
    assert.equal(text(e, e.ruleText(34)), "over 33");
    assert.equal(text(e, e.ruleText(33)), "");
    if (!optimize) {
      // the call site passes the id (a negative constant), not a decoded string
      assert.match(body(wat, "literal"), /i32\.const -\d+/);
      assert.doesNotMatch(body(wat, "literal"), /call \$assembly\/generated\/messages\/__message\b/);
      assert.doesNotMatch(body(wat, "choice"), /call \$assembly\/generated\/messages\/__message\b/);
      // the formatted message is built at the site (no id), the unmarked call keeps its literal
      assert.match(body(wat, "formatted"), /__messageWith/);
      assert.doesNotMatch(body(wat, "unmarked"), /__message/);
      // constants (and constant expressions) are folded into the text, in rule returns too
      assert.doesNotMatch(body(wat, "folded"), /toString|__messageWith/);
      assert.doesNotMatch(body(wat, "rule"), /toString|__messageWith/);
    }
  });
}
