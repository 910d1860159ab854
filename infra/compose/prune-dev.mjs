#!/usr/bin/env node
// Removes the lockfile's dev-only packages from a staged copy of node_modules (what `npm prune
// --omit=dev` does, without npm: nothing is resolved or fetched, the lockfile already says which
// packages only dev dependencies need).
//   node prune-dev.mjs <package-lock.json> <staged node_modules>
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [lockPath, modules] = process.argv.slice(2);
if (!lockPath || !modules) throw new Error('usage: prune-dev.mjs <package-lock.json> <node_modules>');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
let removed = 0;
for (const [path, meta] of Object.entries(lock.packages ?? {})) {
  // `devOptional` packages are needed by an optional production dependency too: kept.
  if (!path.startsWith('node_modules/') || meta.dev !== true) continue;
  rmSync(join(dirname(modules), path), { recursive: true, force: true });
  removed++;
}
rmSync(join(modules, '.cache'), { recursive: true, force: true });
process.stderr.write(`prune-dev: removed ${removed} dev packages\n`);
