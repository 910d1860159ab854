#!/usr/bin/env node
// Builds everything H runs: the Prisma client, the server apps (tsc -> dist/) and the web app.
// Each step prints what it does; a failing step stops the build with its output.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
const run = (label, cmd, args, opts = {}) => {
  if (only.length && !only.includes(label)) return;
  const started = Date.now();
  process.stdout.write(`[build] ${label} ... `);
  try {
    execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  } catch (err) {
    process.stdout.write('failed\n');
    process.stderr.write(String(err.stdout ?? '') + String(err.stderr ?? ''));
    process.exit(1);
  }
  process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
};

run('prisma', 'node', ['prisma/engine/prisma-cli.mjs', 'generate']);
run('server', 'node', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']);
// Compiled apps resolve @h/* imports through tsconfig-paths with this map (see scripts/run-node.sh).
// Written with the server build only; `build.mjs prisma` alone may run before dist/ exists.
if (!only.length || only.includes('server')) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(
    join(root, 'dist/tsconfig.json'),
    // The source's own map, so entries such as @h/config/sandboxd resolve in dist/ too.
    JSON.stringify({ compilerOptions: { baseUrl: '.', paths: JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths } }, null, 2) + '\n',
  );
}
// The `h` CLI: one esbuild bundle, apps/cli/dist/h.js (the package's bin).
run('cli', 'node', ['apps/cli/build.mjs']);
if (existsSync(join(root, 'apps/web/package.json')) || existsSync(join(root, 'apps/web/next.config.ts'))) {
  // Monaco's ESM build and its workers are bundled by Next like any other module (no copy step).
  run('web', 'node', ['node_modules/next/dist/bin/next', 'build', 'apps/web'], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
}
