// read_problems' fallback until language servers arrive: the seed's project auto-detection table
// picks a build/lint command from marker files; a non-zero exit means errors.
import type { Workspace } from '@h/contracts';
import { capForMatch } from '@h/patterns';

export interface BuildCheck {
  command: string;
  marker: string;
}

async function exists(ws: Workspace, path: string): Promise<boolean> {
  return (await ws.stat(path).catch(() => null)) !== null;
}

async function anyFile(ws: Workspace, pattern: string): Promise<boolean> {
  return (await ws.findFiles(pattern, { maxResults: 1 }).catch(() => [])).length > 0;
}

/** The seed's detection table, in its order; null when nothing is recognised. */
export async function detectBuildCheck(ws: Workspace): Promise<BuildCheck | null> {
  const simple: Array<[string, string]> = [
    ['Cargo.toml', 'cargo check 2>&1'],
    ['go.mod', 'go vet ./... 2>&1'],
    ['pom.xml', 'mvn compile 2>&1'],
    ['build.gradle', 'gradle compileJava 2>&1'],
    ['build.gradle.kts', 'gradle compileJava 2>&1'],
  ];
  for (const [marker, command] of simple) if (await exists(ws, marker)) return { marker, command };

  if (await exists(ws, 'package.json')) {
    // --no-install: these machines (and sandboxes) have no internet; never let npx download.
    if (await exists(ws, 'tsconfig.json')) return { marker: 'tsconfig.json', command: 'npx --no-install tsc --noEmit 2>&1' };
    const pkg = await ws.readTextFile('package.json', { maxBytes: 1024 * 1024 }).catch(() => '{}');
    let scripts: Record<string, unknown> = {};
    try {
      scripts = (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts ?? {};
    } catch {
      // an unparsable package.json is itself what the build would report
    }
    if (typeof scripts.build === 'string') return { marker: 'package.json build script', command: 'npm run build 2>&1' };
    // The seed falls back to tsc here; without a tsconfig and a local TypeScript, tsc only prints
    // its usage and exits 1, which would lock task_complete for nothing. Only use it when installed.
    if (await exists(ws, 'node_modules/.bin/tsc')) return { marker: 'package.json', command: 'npx --no-install tsc --noEmit 2>&1' };
  }
  for (const marker of ['requirements.txt', 'pyproject.toml', 'setup.py']) {
    if (await exists(ws, marker)) return { marker, command: 'python3 -m compileall -q . 2>&1' };
  }
  if (await anyFile(ws, '*.py')) return { marker: '*.py', command: 'python3 -m compileall -q . 2>&1' };
  if (await exists(ws, 'Gemfile')) return { marker: 'Gemfile', command: 'ruby -c *.rb 2>&1' };
  if (await exists(ws, 'composer.json')) return { marker: 'composer.json', command: 'php -l *.php 2>&1' };
  if (await exists(ws, 'Makefile')) return { marker: 'Makefile', command: 'make 2>&1' };
  if (await exists(ws, 'CMakeLists.txt')) return { marker: 'CMakeLists.txt', command: 'cmake --build build 2>&1' };
  return null;
}

/** Counts error lines in build output; at least 1 when the command failed. */
export function countErrors(output: string, exitCode: number | null): { errors: number; warnings: number } {
  // "> cmd" lines are npm echoing the script itself, not diagnostics.
  // Lines are capped: `\S+:` backtracks quadratically on a long line of the sandbox's output.
  const lines = output.split('\n').filter((l) => !l.startsWith('> ')).map(capForMatch);
  const errors = lines.filter((l) => /\berror\b|\berr!|^\s*\S+:\d+:\d+: error/i.test(l)).length;
  const warnings = lines.filter((l) => /\bwarn(ing)?\b/i.test(l)).length;
  return { errors: exitCode === 0 ? 0 : Math.max(1, errors), warnings };
}
