// The scene and palette documents on the client's side: validated against docs/schema (the same
// JSON Schemas the OpenAPI document references), and sent with a progress bar.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { CliError, EXIT } from "./cli.mjs";
import { bar, barDone } from "./progress.mjs";

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

/** Sends `body` as JSON in pieces with a progress bar; resolves with status and parsed answer. */
export function upload(base, method, p, body, label) {
  const bytes = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(p, base),
      { method, headers: { "content-type": "application/json", "content-length": bytes.length } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          barDone();
          let json = null;
          try {
            json = JSON.parse(text);
          } catch {
            // an empty answer (204)
          }
          resolve({ status: res.statusCode, body: json });
        });
      },
    );
    req.on("error", (e) => reject(new CliError(`cannot reach ${base}: ${e.message}`, EXIT.UNREACHABLE)));
    const piece = 1024;
    let at = 0;
    const next = () => {
      while (at < bytes.length) {
        const chunk = bytes.subarray(at, at + piece);
        at += chunk.length;
        bar(label, at / bytes.length, `${at} / ${bytes.length} B`);
        if (!req.write(chunk)) return req.once("drain", next);
      }
      req.end();
    };
    next();
  });
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
