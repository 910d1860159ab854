import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_SANDBOX_LIMITS, SandboxWorkspace, type DockerSandboxDriver, type SandboxClient, type SandboxRecord } from '@h/sandbox';
import { cleanup, dockerExec, IMAGE_TIMEOUT_MS, inspect, makeDriver, spec, testPrefix, waitFor } from './sandbox-test-kit';
import { describeWorkspaceBehaviour } from './workspace-behaviour';

const prefix = testPrefix();
let driver: DockerSandboxDriver;
let record: SandboxRecord;
let client: SandboxClient;

beforeAll(async () => {
  driver = await makeDriver(prefix);
  record = await driver.ensure(spec('main'));
  client = await driver.connect(record);
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await driver?.close();
  await cleanup(prefix);
});

describe('DockerSandboxDriver container', () => {
  it('should lock the container down: no network, read-only root, non-root, no capabilities, limits', async () => {
    const info = await inspect(record);
    const hc = info.HostConfig;
    expect(hc.NetworkMode).toBe('none');
    expect(hc.ReadonlyRootfs).toBe(true);
    expect(hc.CapDrop).toEqual(['ALL']);
    expect(hc.SecurityOpt).toContain('no-new-privileges');
    expect(hc.Memory).toBe(DEFAULT_SANDBOX_LIMITS.memoryBytes);
    expect(hc.MemorySwap).toBe(DEFAULT_SANDBOX_LIMITS.memoryBytes);
    expect(hc.NanoCpus).toBe(DEFAULT_SANDBOX_LIMITS.cpus * 1e9);
    expect(hc.PidsLimit).toBe(DEFAULT_SANDBOX_LIMITS.pids);
    expect(info.Config.User).toBe('1000:1000');
    expect(info.Config.Labels).toMatchObject({ 'h.managed': '1', 'h.ns': prefix, 'h.workspace': 'main', 'h.team': 'team-test', 'h.test': '1' });
    // The workspace's files, and beside them (outside /workspace) H's own state: nothing else.
    expect(info.Mounts.sort((x, y) => x.Destination.localeCompare(y.Destination))).toEqual([
      expect.objectContaining({ Type: 'volume', Name: `${record.volume}-state`, Destination: '/var/lib/h-state' }),
      expect.objectContaining({ Type: 'volume', Name: record.volume, Destination: '/workspace' }),
    ]);
    // No Docker socket anywhere inside.
    expect(info.Mounts.some((m) => m.Source.includes('docker.sock'))).toBe(false);
  });

  it('should run as an unprivileged user with only loopback, a read-only root and writable /tmp and $HOME', async () => {
    const r = await client.call('exec.run', {
      command:
        'id -u; ls /sys/class/net | tr "\\n" " "; echo; touch /usr/x 2>/dev/null && echo root-writable || echo root-readonly; ' +
        'touch /tmp/x && echo tmp-ok; touch "$HOME/x" && echo home-ok; grep CapEff /proc/self/status; test -S /var/run/docker.sock && echo docker-sock || echo no-docker-sock',
    });
    expect(r.stdout.split('\n')).toEqual([
      '1000',
      'lo ',
      'root-readonly',
      'tmp-ok',
      'home-ok',
      'CapEff:\t0000000000000000',
      'no-docker-sock',
      '',
    ]);
  });

  it('should relay the host connection through socat, not a second Node process', async () => {
    // The client was opened right after the container started, before the socket existed.
    const r = await client.call('exec.run', { command: 'ps -eo args' });
    expect(r.stdout).toContain('socat -t 3600 STDIO UNIX-CONNECT:/run/sandboxd/sandboxd.sock');
    expect(r.stdout).not.toContain('--bridge');
  });

  it('should carry the tools the agent needs', async () => {
    const r = await client.call('exec.run', {
      command: 'node --version && git --version && python3 --version && rg --version | head -1 && chromium --version && typescript-language-server --version && pyright --version && tsc --version',
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^v22\./);
    for (const tool of ['git version', 'Python 3', 'ripgrep', 'Chromium', 'pyright', 'Version 5.']) expect(r.stdout).toContain(tool);
  });

  it('should connect straight to the daemon socket when its directory is shared with the host', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'h-sock-'));
    const direct = await makeDriver(prefix, { hostSocketDir: dir });
    try {
      const rec = await direct.ensure(spec('direct-socket'));
      const c = await direct.connect(rec);
      expect((await c.call('exec.run', { command: 'echo direct' })).stdout).toBe('direct\n');
      expect(direct.transport(rec)).toBe('socket');
      // The socket dir is named by a hash (short paths whatever the prefix), and goes with the container.
      const [sub] = readdirSync(dir);
      expect(existsSync(path.join(dir, sub, 'sandboxd.sock'))).toBe(true);
      await direct.remove(rec);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await direct.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should fall back to the exec relay for a container created without the socket mount, and reconnect directly after a daemon restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'h-sock-'));
    const direct = await makeDriver(prefix, { hostSocketDir: dir });
    try {
      // `record` (the suite's container) was created by a driver without hostSocketDir.
      const c = await direct.connect(record);
      expect((await c.call('exec.run', { command: 'echo relayed' })).stdout).toBe('relayed\n');
      expect(direct.transport(record)).toBe('exec');

      const rec = await direct.ensure(spec('direct-restart'));
      expect(direct.transport(rec)).toBe('socket');
      const first = await direct.connect(rec);
      const { pid } = await first.call('health', {});
      const closed = new Promise((r) => first.once('close', r));
      await dockerExec(rec.name, ['kill', '-9', String(pid)]);
      await closed;
      // The restarted daemon makes a new socket in the same dir: the next connection uses it.
      const again = await direct.connect(rec);
      expect((await again.call('exec.run', { command: 'echo back' })).stdout).toBe('back\n');
      expect(direct.transport(rec)).toBe('socket');
      await direct.remove(rec);
    } finally {
      await direct.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('should reach a claimed warm container over its socket after a restart, under the workspace name', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'h-sock-'));
    const pooled = await makeDriver(prefix, { hostSocketDir: dir, poolSize: 1 });
    try {
      await pooled.fillPool();
      const rec = await pooled.ensure(spec('direct-pool'));
      expect(rec.volume).toContain('vol-pool-');
      expect(pooled.transport(rec)).toBe('socket');
      await pooled.stop(rec);
      const c = await pooled.connect(rec); // starts it again
      expect((await c.call('exec.run', { command: 'echo pooled' })).stdout).toBe('pooled\n');
      expect(pooled.transport(rec)).toBe('socket');
      await pooled.remove(rec);
    } finally {
      await pooled.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('should run headless Chromium, pyright and tsc offline inside the locked-down container', async () => {
    await client.call('fs.write', { path: 'lang/t.py', content: 'x: int = "s"\n' });
    await client.call('fs.write', { path: 'lang/t.ts', content: 'const x: number = "s";\n' });
    const chromium = await client.call('exec.run', {
      command:
        'chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking ' +
        '--disable-component-update --disable-sync --user-data-dir=/tmp/chromium-profile --dump-dom "data:text/html,<p>rendered</p>"',
      timeoutMs: 60_000,
    });
    expect(chromium.stdout).toContain('<p>rendered</p>');
    const pyright = await client.call('exec.run', { command: 'pyright t.py', cwd: 'lang', timeoutMs: 60_000 });
    expect(pyright.stdout).toContain('reportAssignmentType');
    const tsc = await client.call('exec.run', { command: 'tsc --noEmit t.ts', cwd: 'lang', timeoutMs: 60_000 });
    expect(tsc.stdout).toContain('TS2322');
  }, 120_000);

  it('should keep network none when network access is turned on, re-creating the container on the same volume', async () => {
    const egressDir = mkdtempSync(path.join(os.tmpdir(), 'h-egress-'));
    const netDriver = await makeDriver(prefix, { egressSocketDir: egressDir });
    try {
      const other = await netDriver.ensure(spec('netted', { network: 'egress' }));
      const info = await inspect(other);
      expect(info.HostConfig.NetworkMode).toBe('none');
      expect(info.HostConfig.Binds).toContain(`${path.join(egressDir, 'netted')}:/run/h/egress:ro`);
      await (await netDriver.connect(other)).call('fs.write', { path: 'kept.txt', content: 'kept' });
      const offline = await netDriver.ensure(spec('netted', { network: 'none' }), other);
      expect(offline).toMatchObject({ network: 'none', volume: other.volume });
      expect((await inspect(offline)).HostConfig.Binds).toEqual([]);
      expect((await (await netDriver.connect(offline)).call('fs.read', { path: 'kept.txt' })).content).toBe('kept');
      await netDriver.remove(offline);
    } finally {
      await netDriver.close();
      rmSync(egressDir, { recursive: true, force: true });
    }
  });
});

describe('sandboxd over the exec bridge', () => {
  it('should answer calls concurrently on one connection', async () => {
    const slow = client.call('exec.run', { command: 'sleep 0.5; echo slow' });
    const fast = await client.call('health', {});
    expect(fast.ok).toBe(true);
    expect((await slow).stdout).toBe('slow\n');
  });

  it('should echo through a PTY, resize it and report its exit', async () => {
    const term = await client.openTerminal({ cols: 80, rows: 24 });
    let out = '';
    term.on('data', (d) => (out += d));
    term.write('stty size; echo pty-$((6*7))\n');
    await waitFor(async () => out.includes('pty-42'), 10_000, 'pty echo');
    expect(out).toContain('24 80');
    await term.resize(120, 40);
    term.write('stty size\n');
    await waitFor(async () => out.includes('40 120'), 10_000, 'resized');
    const exited = new Promise<{ exitCode: number }>((r) => term.once('exit', r));
    term.write('exit 7\n');
    expect((await exited).exitCode).toBe(7);
  });

  it('should stream large PTY output completely with flow control', async () => {
    const term = await client.openTerminal({});
    let received = 0;
    let tail = '';
    term.on('data', (d) => {
      received += d.length;
      tail = (tail + d).slice(-200);
    });
    // 4 MB: far past the daemon's high-water mark, so it must pause and resume on acks.
    term.write('head -c 4000000 /dev/zero | tr "\\0" a; echo; echo END-OF-STREAM\n');
    await waitFor(async () => tail.includes('END-OF-STREAM\r\n'), 30_000, 'pty output');
    expect(received).toBeGreaterThan(4_000_000);
    await term.close();
  });

  it('should let a second connection attach to a kept-alive terminal and see its scrollback', async () => {
    const term = await client.openTerminal({ keepAlive: true });
    let out = '';
    term.on('data', (d) => (out += d));
    term.write('echo before-attach\n');
    await waitFor(async () => out.includes('before-attach\r\n'), 10_000, 'first output');
    client.close();
    client = await driver.connect(record);
    const listed = await client.call('pty.list', {});
    expect(listed).toContainEqual(expect.objectContaining({ ptyId: term.id, keepAlive: true }));
    const { terminal, scrollback } = await client.attachTerminal(term.id);
    expect(scrollback).toContain('before-attach');
    let more = '';
    terminal.on('data', (d) => (more += d));
    terminal.write('echo after-attach\n');
    await waitFor(async () => more.includes('after-attach\r\n'), 10_000, 'attached output');
    await terminal.close();
  });

  it('should notify debounced file changes to subscribers', async () => {
    const seen = new Set<string>();
    client.on('fs.changed', (paths) => paths.forEach((p) => seen.add(p)));
    await client.watchFiles(true);
    await client.call('exec.run', { command: 'mkdir -p watched && for i in 1 2 3; do echo $i > watched/f$i.txt; done' });
    await waitFor(async () => ['watched/f1.txt', 'watched/f2.txt', 'watched/f3.txt'].every((p) => seen.has(p)), 10_000, 'file changes');
    await client.watchFiles(false);
  });
});

describeWorkspaceBehaviour('SandboxWorkspace (Docker)', () => new SandboxWorkspace(() => driver.connect(record)));
