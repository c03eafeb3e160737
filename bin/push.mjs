// `tessera push FILE`: a scene or palette document, checked against docs/schema first, then stored:
// a scene replaces the stored one of the same id (when the file has one) or name, else is created; a
// palette replaces the custom palette of its name, else is created.
import { main, controller, request, readJson } from "./lib/cli.mjs";
import { checkDocument, upload, accepted } from "./lib/documents.mjs";

const USAGE =
  "tessera push FILE\n  Validates a scene or palette document (docs/schema) and stores it: creates it, or updates the scene of the same id or name, the palette of the same name.";

export function run(args) {
  return main(args, {}, [1, 1], USAGE, async (opts) => {
    const file = opts.args[0];
    const { kind, body } = checkDocument(readJson(file), file);
    const url = await controller(opts);
    if (kind === "palette") {
      const res = await upload(url, "POST", "/api/palettes", body, "uploading");
      if (res.status !== 409) {
        accepted(res, "create palette");
        return { text: `palette ${body.name} created`, json: { palette: body.name, action: "created" } };
      }
      accepted(
        await upload(url, "PUT", `/api/palettes/${encodeURIComponent(body.name)}`, body, "uploading"),
        "update palette",
      );
      return { text: `palette ${body.name} updated`, json: { palette: body.name, action: "updated" } };
    }
    const { id, ...scene } = body;
    const stored = await request(url, "GET", "/api/scenes");
    const match = stored.find((s) => s.id === id) ?? stored.find((s) => s.name === scene.name);
    if (match) {
      accepted(await upload(url, "PATCH", `/api/scenes/${match.id}`, scene, "uploading"), "update scene");
      return { text: `scene ${scene.name} updated (${match.id})`, json: { id: match.id, action: "updated" } };
    }
    const created = accepted(await upload(url, "POST", "/api/scenes", scene, "uploading"), "create scene");
    return { text: `scene ${scene.name} created (${created.id})`, json: { id: created.id, action: "created" } };
  });
}
