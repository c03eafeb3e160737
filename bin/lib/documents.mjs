// The scene and palette documents on the client's side: validated against docs/schema (the same
// JSON Schemas the OpenAPI document references), and sent with a progress bar.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { CliError, EXIT } from "./cli.mjs";
import { sendWithProgress } from "./progress.mjs";

const SCHEMAS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/schema");
const ajv = new Ajv2020({ strict: false, allErrors: true });
const load = (name) => ajv.compile(JSON.parse(fs.readFileSync(path.join(SCHEMAS, name), "utf8")));
const validators = { scene: load("scene.schema.json"), palette: load("palette.schema.json") };

/** The document's kind (a palette has stops, a scene layers), checked against its schema; `$schema`
 * (for editors) is dropped, since the controller takes only its own fields. */
export function checkDocument(doc, file) {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new CliError(`${file}: not a scene or palette document (a JSON object)`, EXIT.INVALID);
  const kind = "stops" in doc ? "palette" : "scene";
  const { $schema, ...body } = doc;
  const v = validators[kind];
  if (!v(body)) {
    const problems = v.errors
      .slice(0, 8)
      .map(
        (e) =>
          `  ${e.instancePath || "/"}: ${e.message}${e.params?.allowedValues ? ": " + e.params.allowedValues.join(", ") : ""}`,
      );
    throw new CliError(
      `${file}: not a valid ${kind} document (docs/schema/${kind}.schema.json):\n${problems.join("\n")}`,
      EXIT.INVALID,
    );
  }
  return { kind, body };
}

/** Sends `body` as JSON with a progress bar; resolves with the status and the parsed answer. */
export async function upload(base, method, p, body, label) {
  try {
    return await sendWithProgress(
      new URL(p, base),
      method,
      Buffer.from(JSON.stringify(body)),
      "application/json",
      label,
      1024,
    );
  } catch (e) {
    throw new CliError(`cannot reach ${base}: ${e.message}`, EXIT.UNREACHABLE);
  }
}

/** Refuses a 4xx or 5xx answer with the controller's error. */
export function accepted(res, what) {
  if (res.status >= 400)
    throw new CliError(`${what}: ${res.status} ${res.body?.error ?? ""}`, EXIT.REFUSED, {
      status: res.status,
      body: res.body,
    });
  return res.body;
}
