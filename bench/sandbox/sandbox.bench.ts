// Sandbox latency and throughput on the real Docker engine. Prints each figure with its target and
// exits non-zero when one is missed. Run: node bench/engine/run.mjs bench/sandbox/sandbox.bench.ts
// Env: BENCH_RUNS (lifecycle samples, default 7), BENCH_CALLS (per-call samples, default 300).
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { DockerSandboxDriver, ensureSandboxImage, type SandboxClient, type SandboxRecord } from '@h/sandbox';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const prefix = `h-bench-${randomBytes(3).toString('hex')}-`;
const labels = { 'h.test': '1', 'h.bench': '1' };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function p90(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.9))];
}
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

interface Row {
  figure: string;
  value: string;
  target: string;
  ok: boolean;
}
const rows: Row[] = [];
function report(figure: string, samples: number[], targetMs?: number): void {
  const m = median(samples);
  rows.push({
    figure,
    value: `${m.toFixed(2)} ms (p90 ${p90(samples).toFixed(2)}, n=${samples.length})`,
    target: targetMs === undefined ? '—' : `≤ ${targetMs} ms`,
    ok: targetMs === undefined || m <= targetMs,
  });
}

async function ptyEcho(client: SandboxClient): Promise<number[]> {
  const term = await client.openTerminal({ command: '/bin/cat' });
  let buf = '';
  let waiter: (() => void) | null = null;
  let want = '';
  term.on('data', (d) => {
    buf += d;
    if (waiter && buf.includes(want)) waiter();
  });
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    want = `k${i}|`;
    const got = new Promise<void>((r) => (waiter = r));
    const t = performance.now();
    term.write(want);
    await got;
    samples.push(performance.now() - t);
    buf = '';
  }
  await term.close();
  return samples;
}

async function ptyThroughput(client: SandboxClient, bytes: number): Promise<number> {
  const term = await client.openTerminal({});
  let received = 0;
  let tail = '';
  const done = new Promise<void>((resolve) =>
    term.on('data', (d) => {
      received += d.length;
      tail = (tail + d).slice(-64);
      if (tail.includes('BENCH-END\r\n')) resolve();
    }),
  );
  // The echo of the command line itself contains "BENCH-END" without the CRLF after it.
  const t = performance.now();
  term.write(`head -c ${bytes} /dev/zero | tr '\\0' a; echo; echo BENCH-""END\n`);
  await done;
  const secs = (performance.now() - t) / 1000;
  await term.close();
  return received / secs / (1024 * 1024);
}

async function main(): Promise<void> {
  const image = await ensureSandboxImage({ prebuilt: process.env.H_SANDBOX_IMAGE });
  const docker = new Docker();
  const driver = new DockerSandboxDriver({ image, docker, namePrefix: prefix, extraLabels: labels, idleTimeoutMs: 0 });
  const pooled = new DockerSandboxDriver({ image, docker, namePrefix: `${prefix}p-`, extraLabels: labels, idleTimeoutMs: 0, poolSize: 1 });
  const made: SandboxRecord[] = [];
  try {
    // Warm up the engine's caches (image layers, overlay) once.
    made.push(await driver.ensure({ workspaceId: 'warmup', teamId: 'bench' }));

    const cold: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let rec: SandboxRecord | null = null;
      cold.push(await time(async () => (rec = await driver.ensure({ workspaceId: `cold-${i}`, teamId: 'bench' }))));
      if (rec) await driver.remove(rec);
    }
    report('cold create+start (to daemon answering)', cold, 1500);

    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await pooled.fillPool();
      let rec: SandboxRecord | null = null;
      warm.push(await time(async () => (rec = await pooled.ensure({ workspaceId: `warm-${i}`, teamId: 'bench' }))));
      if (rec) made.push(rec);
    }
    report('warm-pool claim', warm, 150);

    const target = made[0];
    const restart: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await driver.stop(target);
      restart.push(await time(() => driver.start(target)));
    }
    report('restart of a stopped container (to daemon answering)', restart, undefined);

    const client = await driver.connect(target);
    await client.call('fs.write', { path: 'bench/file.ts', content: 'x'.repeat(4096) });
    for (let i = 0; i < 20; i++) await client.call('fs.read', { path: 'bench/file.ts' });
    const reads: number[] = [];
    for (let i = 0; i < CALLS; i++) reads.push(await time(() => client.call('fs.read', { path: 'bench/file.ts' })));
    report('file read, 4 KiB, open connection', reads, 2);

    const execs: number[] = [];
    for (let i = 0; i < 10; i++) await client.call('exec.run', { command: 'true' });
    for (let i = 0; i < Math.min(CALLS, 200); i++) execs.push(await time(() => client.call('exec.run', { command: 'true' })));
    report('exec `true`, open connection', execs, 30);

    report('PTY echo round trip', await ptyEcho(client), 10);

    const mbps = await ptyThroughput(client, 64 * 1024 * 1024);
    rows.push({ figure: 'PTY output throughput (64 MiB)', value: `${mbps.toFixed(1)} MiB/s`, target: '—', ok: true });
  } finally {
    for (const r of made) await driver.remove(r).catch(() => undefined);
    await pooled.close();
    for (const r of made) await pooled.remove(r).catch(() => undefined);
    await driver.close();
  }

  const w = Math.max(...rows.map((r) => r.figure.length));
  const v = Math.max(...rows.map((r) => r.value.length));
  console.log(`\nsandbox bench (image ${image}, ${RUNS} lifecycle runs, ${CALLS} calls)`);
  for (const r of rows) console.log(`${r.ok ? ' ' : '!'} ${r.figure.padEnd(w)}  ${r.value.padEnd(v)}  ${r.target}`);
  const missed = rows.filter((r) => !r.ok);
  if (missed.length) {
    console.log(`\n${missed.length} target(s) missed`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
