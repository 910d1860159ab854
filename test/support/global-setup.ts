import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL, TEST_DATABASE_NAME, TEST_DATABASE_URL, TEST_LOG_DIR } from './test-env';

// Creates the test database afresh and applies migrations once per jest run with the real Prisma CLI (the same path H uses at start).
export default async function globalSetup(): Promise<void> {
  mkdirSync(TEST_LOG_DIR, { recursive: true });
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    // A fresh database every run: one left by an earlier run (another branch's migrations, a
    // half-applied one, stray rows) must not decide whether this run passes.
    await admin.query(`DROP DATABASE IF EXISTS "${TEST_DATABASE_NAME}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${TEST_DATABASE_NAME}"`);
  } finally {
    await admin.end();
  }
  execFileSync('node', ['prisma/engine/prisma-cli.mjs', 'migrate', 'deploy'], {
    cwd: process.cwd(),
    env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL },
    stdio: 'pipe',
  });
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  // Sandboxes are real containers: build the image once (cached by recipe hash) for every test.
  if (process.env.H_TEST_SKIP_SANDBOX_IMAGE !== '1') {
    // globalSetup runs outside jest's module mapping: import the file, not @h/sandbox.
    const { ensureSandboxImage } = await import('../../libs/sandbox/src/sandbox-image');
    process.env.H_SANDBOX_IMAGE = await ensureSandboxImage({ prebuilt: process.env.H_SANDBOX_IMAGE });
  }
}
