import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_LOG_DIR } from '../../support/test-env';

// Every test that makes a credential (a token secret, a provider key) notes it here, so the log
// scan can look for all of them, whichever test file made them and in whatever order files ran.
// Kept next to, not inside, the log directory: the scan reads every file there.
export const SECRET_DIR = join(TEST_LOG_DIR, '..', 'test-secrets');

export function recordSecrets(...values: string[]): void {
  // Every credential H makes is long; a short value would match ordinary log text by chance.
  const lines = values.filter((v) => v && v.length >= 16 && !v.includes('\n'));
  if (!lines.length) return;
  mkdirSync(SECRET_DIR, { recursive: true });
  appendFileSync(join(SECRET_DIR, `secrets-${process.pid}.txt`), lines.map((v) => `${v}\n`).join(''));
}

export function recordedSecrets(): string[] {
  if (!existsSync(SECRET_DIR)) return [];
  const all = readdirSync(SECRET_DIR).flatMap((f) => readFileSync(join(SECRET_DIR, f), 'utf8').split('\n'));
  return [...new Set(all.filter(Boolean))];
}
