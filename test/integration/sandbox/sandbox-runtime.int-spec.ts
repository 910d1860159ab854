import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { EgressProxy } from '@h/egress';
import { ensureSandboxImage, probeRuntime } from '@h/sandbox';
import { cleanup, docker, IMAGE_TIMEOUT_MS, inspect, makeDriver, spec, testPrefix } from './sandbox-test-kit';

// SANDBOX_RUNTIME: the probe that decides between the asked-for runtime and the fallback. The
// gVisor part runs only where runsc is registered and works (infra/sandbox/ensure-runsc.sh) and
// otherwise says why it was skipped: nothing else depends on it.
const prefix = testPrefix();
let image: string;
let runscProblem: string | null;

beforeAll(async () => {
  image = await ensureSandboxImage({ prebuilt: process.env.H_SANDBOX_IMAGE });
  runscProblem = await probeRuntime(image, 'runsc', docker);
}, IMAGE_TIMEOUT_MS);

afterAll(() => cleanup(prefix));

describe(probeRuntime.name, () => {
  it('should say why an unregistered runtime cannot be used', async () => {
    expect(await probeRuntime(image, 'no-such-runtime', docker)).toMatch(/not registered/);
  });
});

describe('sandbox under gVisor (runsc)', () => {
  it('should run the sandbox, its commands and the egress forwarder under runsc when it works here', async () => {
    if (runscProblem) return console.warn(`skipped: runsc does not work here (${runscProblem})`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'h-egress-'));
    const target = http.createServer((_q, res) => res.end('through gVisor'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const port = (target.address() as AddressInfo).port;
    const proxy = new EgressProxy({
      socketDir: dir,
      policy: async () => ({ networkEnabled: true, allowedHosts: ['allowed.test'] }),
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      allowedPorts: [port],
      allowLoopbackForTests: true,
    });
    const driver = await makeDriver(prefix, { runtime: 'runsc', egressSocketDir: dir });
    try {
      await proxy.serve('gvisor');
      const record = await driver.ensure(spec('gvisor', { network: 'egress' }));
      expect((await inspect(record)).HostConfig.Runtime).toBe('runsc');
      const client = await driver.connect(record);
      const r = await client.call('exec.run', { command: `dmesg 2>/dev/null | head -1; ls /sys/class/net; curl -sS --max-time 20 http://allowed.test:${port}/` });
      expect(r.stdout).toContain('gVisor');
      expect(r.stdout).toContain('through gVisor');
    } finally {
      await driver.close();
      await proxy.close();
      await new Promise((r) => target.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
