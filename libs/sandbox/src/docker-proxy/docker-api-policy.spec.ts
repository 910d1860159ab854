import { decide, needsBody } from './docker-api-policy';

const P = 'h-';
const labels = { 'h.managed': '1', 'h.ns': P };
const create = (body: Record<string, unknown>, name = 'h-ws-1') => decide({ method: 'POST', url: `/v1.41/containers/create?name=${name}`, body }, P);
const sandbox = (host: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  Image: 'h-sandbox:1',
  Labels: labels,
  HostConfig: { NetworkMode: 'none', Mounts: [{ Type: 'volume', Source: 'h-vol-1', Target: '/workspace' }], ...host },
  ...extra,
});

describe('docker api policy', () => {
  it("should let the driver's container create through, after the image check", () => {
    const d = create(sandbox({ ReadonlyRootfs: true, CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], Privileged: false, CapAdd: null }));
    expect(d).toEqual({ kind: 'image', image: 'h-sandbox:1', path: '/v1.41/containers/create?name=h-ws-1' });
  });

  it.each([
    ['a privileged container', sandbox({ Privileged: true })],
    ['a lower-case privileged key (the engine matches keys case-insensitively)', sandbox({ privileged: true })],
    ['a second, lower-case network mode', sandbox({ networkmode: 'host' })],
    ['host networking', sandbox({ NetworkMode: 'host' })],
    ["another container's network", sandbox({ NetworkMode: 'container:abc' })],
    ['a host bind', sandbox({ Binds: ['/:/host'] })],
    ['the docker socket', sandbox({ Binds: ['/var/run/docker.sock:/var/run/docker.sock'] })],
    ['a bind mount', sandbox({ Mounts: [{ Type: 'bind', Source: '/etc', Target: '/x' }] })],
    ['a volume of another namespace', sandbox({ Mounts: [{ Type: 'volume', Source: 'postgres-data', Target: '/x' }] })],
    ['added capabilities', sandbox({ CapAdd: ['SYS_ADMIN'] })],
    ['devices', sandbox({ Devices: [{ PathOnHost: '/dev/sda' }] })],
    ['the host pid namespace', sandbox({ PidMode: 'host' })],
    ['seccomp off', sandbox({ SecurityOpt: ['seccomp=unconfined'] })],
    ['published ports', sandbox({ PortBindings: { '22/tcp': [{ HostPort: '22' }] } })],
    ['a syslog log driver', sandbox({ LogConfig: { Type: 'syslog', Config: {} } })],
    ['missing labels', { ...sandbox(), Labels: { 'h.managed': '1' } }],
    ['a lower-case labels key', sandbox({}, { labels: { x: '1' } })],
    ['networking config', sandbox({}, { NetworkingConfig: { EndpointsConfig: { h_default: {} } } })],
  ])('should refuse %s', (_what, body) => {
    expect(create(body as Record<string, unknown>).kind).toBe('deny');
  });

  it('should allow host binds only inside the directories the operator allowed', () => {
    const bind = (source: string, dirs: string[]) =>
      decide({ method: 'POST', url: '/containers/create?name=h-ws-1', body: sandbox({ Binds: [`${source}:/run/egress`] }) }, P, dirs).kind;
    expect(bind('/run/h-egress/ws-1', ['/run/h-egress'])).toBe('image');
    expect(bind('/run/h-egress/../../etc', ['/run/h-egress'])).toBe('deny');
    expect(bind('/run/h-egressx', ['/run/h-egress'])).toBe('deny');
    expect(bind('/run/h-egress/ws-1', [])).toBe('deny');
    const mount = decide(
      { method: 'POST', url: '/containers/create?name=h-ws-1', body: sandbox({ Mounts: [{ Type: 'bind', Source: '/run/h-egress/ws-1', Target: '/e' }] }) },
      P,
      ['/run/h-egress'],
    );
    expect(mount.kind).toBe('image');
  });

  it('should refuse a container name outside the prefix, or two names', () => {
    expect(create(sandbox(), 'postgres').kind).toBe('deny');
    expect(create(sandbox(), 'h-ws-1&name=postgres').kind).toBe('deny');
  });

  it.each([
    ['POST', '/images/create?fromImage=alpine'],
    ['POST', '/build'],
    ['POST', '/images/load'],
    ['GET', '/containers/abc/export'],
    ['POST', '/containers/abc/attach'],
    ['PUT', '/containers/abc/archive?path=/'],
    ['POST', '/networks/create'],
    ['POST', '/swarm/init'],
    ['GET', '/secrets'],
    ['POST', '/containers/prune'],
    ['POST', '/volumes/prune'],
    ['GET', '/containers/../images/json'],
    ['GET', '/v1.41//containers/json'],
    ['GET', '/containers/a%2f..%2fb/json'],
  ])('should refuse %s %s', (method, url) => {
    expect(decide({ method, url }, P).kind).toBe('deny');
  });

  it('should narrow container and volume lists to H-labelled objects of this namespace', () => {
    const d = decide({ method: 'GET', url: '/v1.41/containers/json?all=1&filters=' + encodeURIComponent('{"label":["h.test=1"]}') }, P);
    expect(d.kind).toBe('forward');
    const filters = JSON.parse(new URL((d as { path: string }).path, 'http://x').searchParams.get('filters') as string);
    expect(filters.label).toEqual(['h.test=1', 'h.managed=1', 'h.ns=h-']);
    const v = decide({ method: 'GET', url: '/volumes' }, P) as { path: string };
    expect(JSON.parse(new URL(v.path, 'http://x').searchParams.get('filters') as string).label).toEqual(['h.managed=1', 'h.ns=h-']);
  });

  it('should check ownership of the container, exec or volume a call names', () => {
    const c = decide({ method: 'POST', url: '/v1.41/containers/h-ws-1/start' }, P);
    expect(c.kind).toBe('container');
    expect(c.kind === 'container' && c.build('f00')).toBe('/v1.41/containers/f00/start');
    expect(decide({ method: 'DELETE', url: '/containers/h-ws-1?force=true' }, P).kind).toBe('container');
    expect(decide({ method: 'POST', url: '/exec/abc/start' }, P)).toEqual({ kind: 'exec', id: 'abc', path: '/exec/abc/start' });
    expect(decide({ method: 'DELETE', url: '/volumes/h-vol-1' }, P)).toEqual({ kind: 'volume', name: 'h-vol-1', path: '/volumes/h-vol-1' });
  });

  it('should refuse a privileged exec and a rename out of the namespace', () => {
    expect(decide({ method: 'POST', url: '/containers/h-ws-1/exec', body: { Cmd: ['sh'], User: '1000:1000' } }, P).kind).toBe('container');
    expect(decide({ method: 'POST', url: '/containers/h-ws-1/exec', body: { Cmd: ['sh'], Privileged: true } }, P).kind).toBe('deny');
    expect(decide({ method: 'POST', url: '/containers/h-ws-1/exec', body: { Cmd: ['sh'], privileged: true } }, P).kind).toBe('deny');
    expect(decide({ method: 'POST', url: '/containers/h-pool-1/rename?name=h-ws-2' }, P).kind).toBe('container');
    expect(decide({ method: 'POST', url: '/containers/h-pool-1/rename?name=postgres' }, P).kind).toBe('deny');
  });

  it('should allow only labelled volumes of the namespace, never bound to a host path', () => {
    const vol = (body: Record<string, unknown>) => decide({ method: 'POST', url: '/volumes/create', body }, P).kind;
    expect(vol({ Name: 'h-vol-1', Labels: labels })).toBe('forward');
    expect(vol({ Name: 'h-vol-1', Labels: labels, DriverOpts: { type: 'tmpfs', device: 'tmpfs', o: 'size=64m' } })).toBe('forward');
    expect(vol({ Name: 'h-vol-1', Labels: labels, DriverOpts: { type: 'none', o: 'bind', device: '/' } })).toBe('deny');
    expect(vol({ Name: 'other', Labels: labels })).toBe('deny');
    expect(vol({ Name: 'h-vol-1', Labels: {} })).toBe('deny');
    expect(vol({ Name: 'h-vol-1', Labels: labels, Driver: 'nfs' })).toBe('deny');
  });

  it('should read the bodies it checks, and only those', () => {
    expect(needsBody('POST', '/v1.41/containers/create?name=h-x')).toBe(true);
    expect(needsBody('POST', '/containers/h-x/exec')).toBe(true);
    expect(needsBody('POST', '/volumes/create')).toBe(true);
    expect(needsBody('POST', '/exec/abc/start')).toBe(false);
    expect(needsBody('GET', '/containers/json')).toBe(false);
  });
});
