#!/usr/bin/env node
// Runs the pinned `prisma` CLI offline: `npm run prisma -- <args>` (e.g. `generate`,
// `migrate deploy`, `migrate dev --name x --create-only`, `migrate status`, `migrate diff ...`).
// Without PRISMA_SCHEMA_ENGINE_BINARY every command, even `generate`, first tries to download the
// native schema engine from binaries.prisma.sh and fails here; the variable points the CLI at the
// Node shim next to this file instead. The other two stop it phoning home for version checks.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

process.env.PRISMA_SCHEMA_ENGINE_BINARY = join(here, 'schema-engine.mjs');
process.env.CHECKPOINT_DISABLE = '1';
process.env.PRISMA_HIDE_UPDATE_MESSAGE = '1';

// `prisma`'s package exports hide build/, so find its bin through package.json. Running it in this
// process (as if it were argv[1]) saves starting a second Node for every command.
const cli = join(dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
process.argv.splice(1, 1, cli);
require(cli);
