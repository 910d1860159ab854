import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Tests and benchmarks that run the BUILT server (dist/) rebuild it when a source file is newer.
// No imports of H code here, so a benchmark bundle can use it without pulling in the apps.

const ROOT = process.cwd();
const WORKER_MAIN = join(ROOT, 'dist/apps/worker/src/main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the server into dist/ when it is missing or older than any server source file. */
export function ensureServerBuild(): void {
  const built = existsSync(WORKER_MAIN) && existsSync(join(ROOT, 'dist/tsconfig.json')) ? statSync(WORKER_MAIN).mtimeMs : 0;
  const sources = ['apps/api/src', 'apps/worker/src', ...readdirSync(join(ROOT, 'libs')).map((l) => `libs/${l}/src`)].map((d) => join(ROOT, d)).filter(existsSync);
  if (built && Math.max(...sources.map(newestSource)) <= built) return;
  // flock: other engineers' test runs may build at the same moment.
  execFileSync('flock', ['/tmp/h-build.lock', 'node', 'scripts/build.mjs', 'prisma', 'server'], { cwd: ROOT, stdio: 'pipe', timeout: 300_000 });
}
