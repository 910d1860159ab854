#!/usr/bin/env node
// Runs the pinned `prisma` CLI offline: `npm run prisma -- <args>` (e.g. `generate`,
// `migrate deploy`, `migrate dev --name x --create-only`, `migrate status`, `migrate diff ...`).
// Without PRISMA_SCHEMA_ENGINE_BINARY every command, even `generate`, first tries to download the
// native schema engine from binaries.prisma.sh and fails here; the variable points it at the Node
// shim next to this file instead. The other variables stop the CLI phoning home.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: join(here, 'schema-engine.mjs'),
  CHECKPOINT_DISABLE: '1', // no version/telemetry check against checkpoint.prisma.io
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};

// `prisma`'s package exports hide build/, so locate its bin through package.json.
const cli = join(dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
const child = spawn(process.execPath, [cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
