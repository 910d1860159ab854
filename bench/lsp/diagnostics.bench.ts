// bench/lsp: edit -> diagnostics visible, TypeScript, through sandboxd's language-server host.
//   node bench/engine/run.mjs bench/lsp/diagnostics.bench.ts      (needs Docker; BENCH_RUNS, default 20)
// Each sample sends an editor buffer (`lsp.sync`, as the IDE does after its debounce) that toggles
// a type error on and off, and times until the `lsp.diagnostics` notification carrying the new
// state arrives on the connection (what the api relays as `diagnostics.changed`).
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import type { LspDiagnosticsNotification } from '@h/sandbox-protocol';
import { DockerSandboxDriver, ensureSandboxImage } from '@h/sandbox';

const TARGET_P50_MS = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const prefix = `h-bench-${randomBytes(3).toString('hex')}-`;
const labels = { 'h.test': '1', 'h.bench': '1' };

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const source = (i: number, broken: boolean) =>
  `import { double } from './math';\n// edit ${i}\nexport const label: string = ${broken ? 'double(2)' : 'String(double(2))'};\n`;

async function main(): Promise<void> {
  const image = await ensureSandboxImage({ prebuilt: process.env.H_SANDBOX_IMAGE });
  const driver = new DockerSandboxDriver({ image, namePrefix: prefix, extraLabels: labels, idleTimeoutMs: 0 });
  let failed = false;
  try {
    const record = await driver.ensure({ workspaceId: 'bench-lsp', teamId: 'bench' });
    const client = await driver.connect(record);
    await client.call('fs.write', { path: 'tsconfig.json', content: JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }) });
    await client.call('fs.write', { path: 'src/math.ts', content: 'export function double(n: number): number {\n  return n * 2;\n}\n' });
    await client.call('fs.write', { path: 'src/main.ts', content: source(0, false) });
    let waiter: ((n: LspDiagnosticsNotification) => void) | null = null;
    client.on('lsp.diagnostics', (n) => waiter?.(n));
    // Warm-up: the server's start and first project load are not an edit.
    await client.call('lsp.diagnostics', { paths: ['src/main.ts'], waitMs: 60_000 });

    const samples: number[] = [];
    for (let i = 1; i <= RUNS + 2; i++) {
      const broken = i % 2 === 1;
      const seen = new Promise<number>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no diagnostics for edit ${i} within 30 s`)), 30_000);
        waiter = (n) => {
          const f = n.files?.find((x) => x.path === 'src/main.ts');
          const errors = f?.diagnostics.filter((d) => d.severity === 'error').length ?? -1;
          if (f && (broken ? errors > 0 : errors === 0)) {
            clearTimeout(t);
            resolve(performance.now());
          }
        };
      });
      const start = performance.now();
      await client.call('lsp.sync', { path: 'src/main.ts', text: source(i, broken) });
      const at = await seen;
      if (i > 2) samples.push(at - start);
    }
    const p50 = quantile(samples, 0.5);
    console.log(`edit -> diagnostics visible (TypeScript), ${samples.length} edits: p50 ${p50.toFixed(0)} ms, p90 ${quantile(samples, 0.9).toFixed(0)} ms (target p50 <= ${TARGET_P50_MS} ms) ${p50 <= TARGET_P50_MS ? 'OK' : 'MISSED'}`);
    failed = p50 > TARGET_P50_MS;
  } finally {
    await driver.close();
    const docker = new Docker();
    for (const c of await docker.listContainers({ all: true, filters: { label: ['h.bench=1'] } })) {
      if (c.Names.some((n) => n.replace(/^\//, '').startsWith(prefix))) await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
    }
    for (const v of (await docker.listVolumes({ filters: { label: ['h.bench=1'] } })).Volumes ?? []) {
      if (v.Name.startsWith(prefix)) await docker.getVolume(v.Name).remove().catch(() => undefined);
    }
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
