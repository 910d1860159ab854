// Browser screenshot round trip on the real Docker engine: `browser.screenshot` over an open
// sandbox connection (viewport PNG, grid composed in Chromium, base64 back through the bridge).
// Prints the figures with their targets; exits non-zero when the p50 target is missed.
// Run: node bench/engine/run.mjs bench/browser/screenshot.bench.ts   Env: BENCH_CALLS (default 30).
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { DockerSandboxDriver, ensureSandboxImage } from '@h/sandbox';
import { FIXTURE_APP_SOURCE, FIXTURE_URL } from '../../test/integration/browser/fixture-login-app';

const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const TARGET_P50_MS = 300;
const prefix = `h-bench-${randomBytes(3).toString('hex')}-`;
const labels = { 'h.test': '1', 'h.bench': '1' };

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

async function main(): Promise<void> {
  const image = await ensureSandboxImage({ prebuilt: process.env.H_SANDBOX_IMAGE });
  const driver = new DockerSandboxDriver({ image, namePrefix: prefix, extraLabels: labels, idleTimeoutMs: 0 });
  let failed = false;
  try {
    const record = await driver.ensure({ workspaceId: `${prefix}ws`, teamId: 'bench' });
    const client = await driver.connect(record);
    await client.call('fs.write', { path: 'fixture.js', content: FIXTURE_APP_SOURCE });
    await client.call('pty.open', { command: 'node', args: ['/workspace/fixture.js'], keepAlive: true });
    for (let i = 0; ; i++) {
      const r = await client.call('exec.run', { command: `node -e "fetch('${FIXTURE_URL}').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"` });
      if (r.exitCode === 0) break;
      if (i > 100) throw new Error('the fixture app did not start');
    }
    let t = performance.now();
    await client.call('browser.navigate', { url: FIXTURE_URL });
    const coldMs = performance.now() - t;
    // Warm-up: the first screenshot also opens the composer page.
    await client.call('browser.screenshot', {});
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < CALLS; i++) {
      t = performance.now();
      const shot = await client.call('browser.screenshot', {});
      samples.push(performance.now() - t);
      bytes = shot.data.length;
    }
    const p50 = quantile(samples, 0.5);
    failed = p50 > TARGET_P50_MS;
    console.log(`first navigate (browser launch + load): ${coldMs.toFixed(0)} ms`);
    console.log(`screenshot round trip: p50 ${p50.toFixed(1)} ms, p90 ${quantile(samples, 0.9).toFixed(1)} ms (n=${CALLS}, ${(bytes / 1024).toFixed(0)} KiB base64)  target p50 <= ${TARGET_P50_MS} ms  ${failed ? 'MISSED' : 'ok'}`);
  } finally {
    await driver.close();
    const docker = new Docker();
    for (const c of await docker.listContainers({ all: true, filters: { label: ['h.bench=1'] } })) {
      if (c.Names.some((n) => n.includes(prefix))) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
    }
    for (const v of (await docker.listVolumes({ filters: { label: ['h.bench=1'] } })).Volumes ?? []) {
      if (v.Name.startsWith(prefix)) await docker.getVolume(v.Name).remove().catch(() => undefined);
    }
  }
  process.exit(failed ? 1 : 0);
}

void main();
