// docs/openapi.yaml as standard linters and clients read it: a root `security: []` (the controller
// has no authentication), and the 403 `cross_origin` of the Host and Origin policy (docs/decisions.md,
// LAN safety) listed on every operation, since every one can give it. Each documented operation is
// sent, black box, from a page of another site, and its answer checked against its own 403.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { startHost, ROOT, type Host } from "./helpers/host.js";
import { checkResponse } from "./helpers/openapi.js";

const spec = parse(fs.readFileSync(path.join(ROOT, "docs/openapi.yaml"), "utf8"));
const METHODS = ["get", "put", "post", "patch", "delete"];
/** A value for each path parameter: the request must pass the router to meet the policy anyway. */
const PARAMS: Record<string, string> = { id: "abcdefgh", address: "1", name: "Lava" };

let host: Host;
before(async () => {
  host = await startHost({ panels: 2 });
});
after(async () => {
  await host?.stop();
});

test("the document says there is no authentication: a root security of []", () => {
  assert.deepEqual(spec.security, []);
  assert.equal(spec.components.securitySchemes, undefined);
});

test("every operation documents the 403 cross_origin it answers to a page of another site", async () => {
  let sent = 0;
  for (const [template, item] of Object.entries<Record<string, unknown>>(spec.paths)) {
    const p = template.replace(/\{(\w+)\}/g, (_, k) => {
      assert.ok(PARAMS[k], `a value for {${k}}`);
      return PARAMS[k];
    });
    for (const method of METHODS.filter((m) => m in item)) {
      const op = item[method] as { responses: Record<string, unknown> };
      assert.ok(op.responses["403"], `${method.toUpperCase()} ${template} lists no 403`);
      const res = await fetch(host.url + p, {
        method: method.toUpperCase(), // fetch sends "patch" as written
        headers: { Origin: "http://evil.example", "Content-Type": "application/json" },
        body: method === "get" || method === "delete" ? undefined : "{}",
      });
      const text = await res.text();
      assert.equal(res.status, 403, `${method} ${p}: ${text}`);
      assert.deepEqual(JSON.parse(text), { error: "cross_origin" });
      checkResponse(method, p, res.status, res.headers.get("content-type"), text);
      sent++;
    }
  }
  assert.ok(sent >= 30, `${sent} operations`);
});
