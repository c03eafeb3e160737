// `tessera restore FILE`: puts a backup (bin/backup.mjs) back, changing only what differs, so running
// it twice changes nothing the second time; it reports each change. Palettes come before the
// appearance that may name one; a scene is put back under its own id (created with PUT
// /api/scenes/{id}, or replaced when different); a version 1 backup's, which have no ids, are matched
// by name.
import { main, controller, request, readJson, CliError, EXIT } from "./lib/cli.mjs";
import { FORMAT, VERSIONS, read, mqttSettings } from "./lib/backup.mjs";
import { checkDocument, upload, accepted } from "./lib/documents.mjs";

const USAGE =
  "tessera restore FILE\n  Restores a backup: creates or updates what differs (scenes under their ids, palettes, appearance, configuration, MQTT settings) and reports it.";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/** The fields of `want` whose values differ from `have`. */
const diff = (want, have) => Object.fromEntries(Object.entries(want).filter(([k, v]) => !same(v, have?.[k])));

export function run(args) {
  return main(args, {}, [1, 1], USAGE, async (opts) => {
    const file = opts.args[0];
    const backup = readJson(file);
    if (backup?.format !== FORMAT || !VERSIONS.includes(backup.version))
      throw new CliError(`${file}: not a ${FORMAT} version ${VERSIONS.join(" or ")} file`, EXIT.INVALID);
    const scenes = backup.scenes.map(({ id, ...scene }) => ({ id, scene }));
    for (const doc of [...backup.palettes, ...scenes.map((s) => s.scene)]) checkDocument(doc, file);
    const url = await controller(opts);
    const now = await read(url);
    const changes = [];

    for (const p of backup.palettes) {
      const have = now.palettes.find((q) => q.name.toLowerCase() === p.name.toLowerCase());
      if (have && same(have.stops, p.stops)) continue;
      const path = have ? `/api/palettes/${encodeURIComponent(have.name)}` : "/api/palettes";
      accepted(
        await upload(url, have ? "PUT" : "POST", path, { name: have?.name ?? p.name, stops: p.stops }, "palette"),
        `palette ${p.name}`,
      );
      changes.push(`palette ${p.name} ${have ? "updated" : "created"}`);
    }
    for (const [what, path] of [
      ["appearance", "/api/appearance"],
      ["configuration", "/api/configuration"],
    ]) {
      const patch = diff(backup[what], now[what]);
      if (Object.keys(patch).length === 0) continue;
      await request(url, "PATCH", path, patch);
      for (const k of Object.keys(patch))
        changes.push(`${what}.${k}: ${JSON.stringify(now[what][k])} -> ${JSON.stringify(patch[k])}`);
    }
    if (backup.mqtt) {
      const have = await mqttSettings(url);
      if (!have) changes.push("mqtt: skipped, this controller has no MQTT");
      else {
        const patch = diff(backup.mqtt, have);
        if (Object.keys(patch).length > 0) {
          await request(url, "PATCH", "/api/mqtt", patch);
          for (const k of Object.keys(patch))
            changes.push(`mqtt.${k}: ${JSON.stringify(have[k])} -> ${JSON.stringify(patch[k])}`);
        }
      }
    }
    const stored = await request(url, "GET", "/api/scenes");
    const used = new Set();
    for (const { id, scene } of scenes) {
      // its own id; in a version 1 backup, the first stored scene of that name not yet matched
      // (names may repeat)
      const match = id ? stored.find((s) => s.id === id) : stored.find((s) => s.name === scene.name && !used.has(s.id));
      if (id && !match) {
        accepted(await upload(url, "PUT", `/api/scenes/${id}`, scene, "scene"), `scene ${scene.name}`);
        changes.push(`scene ${scene.name} created (${id})`);
      } else if (match) {
        used.add(match.id);
        const { id: _, ...have } = await request(url, "GET", `/api/scenes/${match.id}`);
        if (same(have, scene)) continue;
        accepted(await upload(url, "PATCH", `/api/scenes/${match.id}`, scene, "scene"), `scene ${scene.name}`);
        changes.push(`scene ${scene.name} updated (${match.id})`);
      } else {
        const created = accepted(await upload(url, "POST", "/api/scenes", scene, "scene"), `scene ${scene.name}`);
        used.add(created.id);
        changes.push(`scene ${scene.name} created (${created.id})`);
      }
    }
    return { text: changes.length ? changes.join("\n") : "nothing to change", json: { changes } };
  });
}
