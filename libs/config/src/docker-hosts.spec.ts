import { parseDockerHosts } from './docker-hosts';

describe(parseDockerHosts.name, () => {
  it('should read names, endpoints and limits', () => {
    expect(parseDockerHosts('a=unix:///var/run/docker.sock, b=tcp://10.0.0.7:2375;max=20')).toEqual([
      { name: 'a', endpoint: 'unix:///var/run/docker.sock' },
      { name: 'b', endpoint: 'tcp://10.0.0.7:2375', maxSandboxes: 20 },
    ]);
  });

  it.each([
    ['unix:///var/run/docker.sock', /start each entry with a name/],
    ['a=http://x:1', /unix:\/\/\/path/],
    ['a=unix:///s,a=unix:///t', /listed twice/],
    ['a=unix:///s;max=0', /unknown option/],
    ['a=unix:///s;cpu=2', /unknown option/],
    [' , ', /at least one host/],
  ])('should refuse %p', (value, message) => {
    expect(() => parseDockerHosts(value)).toThrow(message);
  });
});

describe('SANDBOX_DOCKER_HOSTS in the env schema', () => {
  it('should parse the list, leave it unset when empty, and refuse a bad entry naming it', async () => {
    const { envSchema } = await import('./env.schema');
    const base = { DATABASE_URL: 'postgresql://h@127.0.0.1/h', REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(envSchema.parse({ ...base, SANDBOX_DOCKER_HOSTS: 'a=unix:///s;max=2' }).SANDBOX_DOCKER_HOSTS).toEqual([{ name: 'a', endpoint: 'unix:///s', maxSandboxes: 2 }]);
    expect(envSchema.parse({ ...base, SANDBOX_DOCKER_HOSTS: '' }).SANDBOX_DOCKER_HOSTS).toBeUndefined();
    const bad = envSchema.safeParse({ ...base, SANDBOX_DOCKER_HOSTS: 'a=http://x:1' });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toMatch(/SANDBOX_DOCKER_HOSTS.*unix:\/\/\/path|unix:\/\/\/path.*SANDBOX_DOCKER_HOSTS/);
  });
});
