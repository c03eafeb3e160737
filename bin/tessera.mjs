#!/usr/bin/env node
// `tessera`, the project's command-line client (package.json "bin"): runs host/src/cli.ts through tsx,
// the TypeScript loader the project already uses for `npm start`.
import { register } from "tsx/esm/api";

register();
await import("../host/src/cli.ts");
