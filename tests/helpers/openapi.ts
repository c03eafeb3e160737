// The API's machine-readable description (docs/openapi.yaml and the scene and palette JSON Schemas
// it references), compiled once with ajv: `checkResponse` holds every answer the black-box tests get
// through `api()` (helpers/host.ts) to the document (status listed, content type, body schema), so the
// document cannot drift from the code; `componentSchema` gives a schema of it by name (the scene
// and palette request bodies), for the validation tests to check it rejects what the core rejects.
import fs from "node:fs";
import path from "node:path";
import assert from "node:assert/strict";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const BASE = "https://tessera.invalid/docs/";
const read = (p: string) => fs.readFileSync(path.join(ROOT, "docs", p), "utf8");
const spec = parse(read("openapi.yaml"));

const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
for (const name of ["schema/scene.schema.json", "schema/palette.schema.json"])
  ajv.addSchema({ ...JSON.parse(read(name)), $id: BASE + name });
ajv.addSchema({ ...spec, $id: BASE + "openapi.json" });

const pointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
const compiled = new Map<string, ValidateFunction>();
function validator(ref: string): ValidateFunction {
  let v = compiled.get(ref);
  if (!v) {
    v = ajv.getSchema(ref);
    if (!v) throw new Error(`no schema at ${ref}`);
    compiled.set(ref, v);
  }
  return v;
}
const errors = (v: ValidateFunction) => ajv.errorsText(v.errors, { separator: "; " });

/** A schema of docs/openapi.yaml's components, by name. */
export const componentSchema = (name: string) => validator(BASE + "openapi.json#/components/schemas/" + name);
/** The scene as the library takes it (POST and PATCH /api/scenes: no id, no $schema). */
export const sceneBodySchema = componentSchema("SceneBody");

/** Checks `doc` against `v`: accepted (true) or rejected (false), with the reason in the message. */
export function assertSchema(v: ValidateFunction, doc: unknown, accepted: boolean, what = ""): void {
  const ok = v(doc) as boolean;
  assert.equal(ok, accepted, `${what} ${JSON.stringify(doc).slice(0, 200)}: schema ${ok ? "accepts" : errors(v)}`);
}

// Path templates, literal ones first (scenes/play before scenes/{id}), as regular expressions.
const templates = Object.keys(spec.paths)
  .sort((a, b) => (a.includes("{") ? 1 : 0) - (b.includes("{") ? 1 : 0))
  .map((t) => ({ t, re: new RegExp("^" + t.replace(/\{[^}]+\}/g, "[^/]+") + "$") }));

/** Follows `$ref`s from the object at `parts` (a JSON pointer's segments) to where they end. */
function deref(parts: string[]): string[] {
  for (;;) {
    const obj = parts.reduce((o: any, k) => o[k], spec);
    if (!obj?.$ref) return parts;
    parts = obj.$ref
      .replace(/^#\//, "")
      .split("/")
      .map((k: string) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
  }
}

/** The document's description of an answer to `method path` with `status`: the JSON pointer of its
 * response object, or an error saying why there is none. */
function responseFor(method: string, url: string, status: number): string[] | string {
  const p = new URL(url, "http://x").pathname.replace(/(.)\/$/, "$1");
  const anyRequest = (spec["x-tessera-any-request"] as Record<string, unknown>)[status] !== undefined;
  const found = templates.find(({ re }) => re.test(p));
  const m = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  const op = found && spec.paths[found.t][m];
  if (found && op?.responses[status]) return ["paths", found.t, m, "responses", String(status)];
  if (anyRequest) return ["x-tessera-any-request", String(status)];
  if (!found) return status === 404 ? ["x-tessera-unknown-path"] : `no path ${p} in docs/openapi.yaml`;
  if (!op) return status === 405 ? ["x-tessera-unknown-method"] : `${method} ${found.t} is not documented`;
  return `${method} ${found.t} does not list status ${status}`;
}

/** Asserts that an answer is what docs/openapi.yaml says `method url` may answer. */
export function checkResponse(method: string, url: string, status: number, contentType: string | null, text: string) {
  if (!new URL(url, "http://x").pathname.startsWith("/api/")) return; // the web app's files
  const where = responseFor(method, url, status);
  const what = `${method} ${url} → ${status} ${text.slice(0, 200)}`;
  assert.ok(Array.isArray(where), `${where}: ${what}`);
  const at = deref(where);
  const response = at.reduce((o: any, k) => o[k], spec);
  if (!response.content || method.toUpperCase() === "HEAD") {
    assert.ok(method.toUpperCase() === "HEAD" || text === "", `no body expected: ${what}`);
    return;
  }
  assert.equal(contentType?.split(";")[0], "application/json", `content type: ${what}`);
  let body: unknown;
  assert.doesNotThrow(() => (body = JSON.parse(text)), `not JSON: ${what}`);
  const schemaPath = [...at, "content", "application/json", "schema"];
  const v = validator(BASE + "openapi.json#/" + pointer(schemaPath));
  assert.ok(v(body), `not as docs/openapi.yaml says: ${what}: ${errors(v)}`);
}
