import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

let cached: Promise<string> | null = null;

// Reads no environment (and imports no @h/* alias): the jest global setup loads this file on its own.

/** The repository root: this file lives at libs/sandbox/src, unless bundled (then the cwd). */
export function repoRoot(): string {
  const fromSource = path.resolve(__dirname, '../../..');
  return existsSync(path.join(fromSource, 'infra/sandbox')) ? fromSource : process.cwd();
}

/**
 * Builds the sandbox image if its recipe changed (infra/sandbox/build-image.sh: minutes the first
 * time, about a second when cached) and returns its tag. Also makes sure dockerd runs. Memoized per
 * process; a `prebuilt` tag short-circuits it (tests pass the H_SANDBOX_IMAGE their global setup
 * built; the worker has SANDBOX_IMAGE of its config instead).
 */
export function ensureSandboxImage(options: { force?: boolean; prebuilt?: string } = {}): Promise<string> {
  if (options.prebuilt && !options.force) return Promise.resolve(options.prebuilt);
  if (cached && !options.force) return cached;
  cached = new Promise<string>((resolve, reject) => {
    const script = path.join(repoRoot(), 'infra/sandbox/build-image.sh');
    execFile('bash', [script], { maxBuffer: 16 * 1024 * 1024, timeout: 30 * 60_000 }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`build-image.sh failed: ${err.message}\n${stderr.slice(-4000)}`));
        return;
      }
      const tag = stdout.trim().split('\n').pop() ?? '';
      if (!tag) reject(new Error('build-image.sh printed no tag'));
      else resolve(tag);
    });
  });
  cached.catch(() => (cached = null));
  return cached;
}
