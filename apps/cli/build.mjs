// Bundles the `h` CLI into one file with esbuild: apps/cli/dist/h.js (commander and the few
// contract constants inside, nothing of the server), so the package installs with no dependencies.
//   node apps/cli/build.mjs
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const outfile = join(here, 'dist/h.js');
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));

await build({
  entryPoints: [join(here, 'src/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  tsconfig: join(repo, 'tsconfig.base.json'),
  banner: { js: '#!/usr/bin/env node' },
  define: { H_CLI_VERSION: JSON.stringify(version) },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
