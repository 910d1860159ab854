#!/usr/bin/env node
// Prints how long the offline Prisma CLI takes for what H runs often: `generate`, `migrate deploy`
// on an empty database and again with nothing to do, and `migrate status`: median wall time of N
// runs, with the load average (the machine is shared, so figures swing with it).
//   node prisma/engine/bench.mjs [runs=3]
// Uses a scratch database on the server of BENCH_ADMIN_DATABASE_URL (default: local postgres).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const pg = require('pg');
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'prisma/engine/prisma-cli.mjs');
const runs = Number(process.argv[2] ?? 3);
const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/postgres';

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function timed(args, databaseUrl) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`prisma ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return wallMs;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const samples = { generate: [], 'migrate deploy (empty database)': [], 'migrate deploy (nothing to do)': [], 'migrate status': [] };
for (let i = 0; i < runs; i++) {
  const database = `h_bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  await admin(`CREATE DATABASE "${database}"`);
  try {
    samples.generate.push(timed(['generate'], url.toString()));
    samples['migrate deploy (empty database)'].push(timed(['migrate', 'deploy'], url.toString()));
    samples['migrate deploy (nothing to do)'].push(timed(['migrate', 'deploy'], url.toString()));
    samples['migrate status'].push(timed(['migrate', 'status'], url.toString()));
  } finally {
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  }
}
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
for (const [name, values] of Object.entries(samples)) {
  console.log(`${name.padEnd(34)} median ${(median(values) / 1000).toFixed(2)} s  (runs: ${values.map((v) => (v / 1000).toFixed(2)).join(', ')})`);
}
