// Runs a TypeScript benchmark without ts-node/tsx: esbuild bundles it (resolving the @h/* paths
// of tsconfig.base.json; node_modules stay external) into a temp CommonJS file, and plain node
// runs that. Usage: node bench/engine/run.mjs bench/engine/fix-failing-test.bench.ts [args...]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node bench/engine/run.mjs <file.bench.ts> [args...]');
  process.exit(2);
}
// Inside the checkout (tmp/ is git-ignored) so that `require` finds the root node_modules.
mkdirSync(resolve('tmp'), { recursive: true });
const out = mkdtempSync(join(resolve('tmp'), 'bench-'));
const outfile = join(out, `${basename(entry, '.ts')}.cjs`);
await build({
  entryPoints: [resolve(entry)],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  tsconfig: resolve('tsconfig.base.json'),
  sourcemap: 'inline',
  logLevel: 'warning',
});
const res = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...args], { stdio: 'inherit', cwd: process.cwd() });
rmSync(out, { recursive: true, force: true });
process.exit(res.status ?? 1);
