// `tessera ota --host H [--port P] FILE`: self-update a controller over the network (espota's
// protocol). The client is TypeScript (host/src/cli.ts, host/src/ota-client.ts), run through tsx, the
// loader the project already uses for `npm start`.
import { register } from "tsx/esm/api";

export async function run(args) {
  register();
  const { ota } = await import("../host/src/cli.ts");
  return ota(args);
}
