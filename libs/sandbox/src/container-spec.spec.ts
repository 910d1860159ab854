import { containerCreateOptions } from './container-spec';
import { DEFAULT_SANDBOX_LIMITS, type SandboxRecord } from './sandbox-driver';

const record: SandboxRecord = {
  driver: 'docker',
  workspaceId: 'w1',
  teamId: 't1',
  name: 'h-ws-w1',
  volume: 'h-vol-w1',
  network: 'none',
  createdAt: '2026-11-29T00:00:00Z',
};

describe(containerCreateOptions.name, () => {
  const base = { record, image: 'h-sandbox:x', user: '1000:1000', limits: DEFAULT_SANDBOX_LIMITS, labels: { 'h.managed': '1' } };

  it('should lock the container down and mount only the workspace volume', () => {
    const o = containerCreateOptions(base);
    expect(o.User).toBe('1000:1000');
    expect(o.HostConfig).toMatchObject({
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Memory: DEFAULT_SANDBOX_LIMITS.memoryBytes,
      MemorySwap: DEFAULT_SANDBOX_LIMITS.memoryBytes,
      PidsLimit: DEFAULT_SANDBOX_LIMITS.pids,
      Binds: [],
      Mounts: [{ Type: 'volume', Source: 'h-vol-w1', Target: '/workspace' }],
    });
    expect(Object.keys(o.HostConfig?.Tmpfs ?? {}).sort()).toEqual(['/home/h', '/run/sandboxd', '/tmp']);
    expect(JSON.stringify(o)).not.toContain('docker.sock');
  });

  it('should bind the socket dir only when direct connections are configured', () => {
    const o = containerCreateOptions({ ...base, hostSocketDir: '/var/lib/h/sock/h-ws-w1' });
    expect(o.HostConfig?.Binds).toEqual(['/var/lib/h/sock/h-ws-w1:/run/sandboxd']);
    expect(o.HostConfig?.Tmpfs).not.toHaveProperty('/run/sandboxd');
  });

  it('should keep network none with network access and mount only the egress socket dir, read-only', () => {
    const o = containerCreateOptions({ ...base, record: { ...record, network: 'egress' }, egressHostDir: '/var/lib/h/egress/w1' });
    expect(o.HostConfig?.NetworkMode).toBe('none');
    expect(o.HostConfig?.Binds).toEqual(['/var/lib/h/egress/w1:/run/h/egress:ro']);
    expect(o.Env).toContain('SANDBOXD_EGRESS_SOCKET=/run/h/egress/egress.sock');
    expect(() => containerCreateOptions({ ...base, record: { ...record, network: 'egress' } })).toThrow(/egress/);
  });

  it('should mount the model gateway socket dir read-only into every sandbox when given, network none', () => {
    const o = containerCreateOptions({ ...base, modelGatewayHostDir: '/var/lib/h/model-gateway' });
    expect(o.HostConfig?.Binds).toEqual(['/var/lib/h/model-gateway:/run/h/model:ro']);
    expect(o.HostConfig?.NetworkMode).toBe('none');
    expect(containerCreateOptions(base).HostConfig?.Binds).toEqual([]);
  });

  it('should bind the budgeted disk at /workspace, tell the daemon its size and set the runtime when asked', () => {
    const o = containerCreateOptions({ ...base, record: { ...record, diskMb: 512 }, workspace: { type: 'bind', source: '/d/mnt/h-vol-w1' }, runtime: 'runsc' });
    expect(o.HostConfig?.Mounts).toEqual([{ Type: 'bind', Source: '/d/mnt/h-vol-w1', Target: '/workspace' }]);
    expect(o.Env).toContain('SANDBOXD_DISK_MB=512');
    expect(o.HostConfig?.Runtime).toBe('runsc');
    expect(containerCreateOptions(base).HostConfig).not.toHaveProperty('Runtime');
  });

  it('should mount the state volume outside /workspace and tell the daemon where it is', () => {
    const o = containerCreateOptions({ ...base, stateVolume: 'h-vol-w1-state' });
    expect(o.HostConfig?.Mounts).toEqual([
      { Type: 'volume', Source: 'h-vol-w1', Target: '/workspace' },
      { Type: 'volume', Source: 'h-vol-w1-state', Target: '/var/lib/h-state' },
    ]);
    expect(o.Env).toContain('SANDBOXD_STATE_DIR=/var/lib/h-state');
    expect(containerCreateOptions(base).Env?.some((e) => e.startsWith('SANDBOXD_STATE_DIR'))).toBe(false);
  });
});
