import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { envSchema } from '@h/config';

// No image can be pulled on H's build machines, so `docker compose up` cannot run in CI. These
// checks catch what would break a self-hoster's first start: a service missing, a Dockerfile path
// that does not exist, a dependency that does not wait for health, an undocumented variable.
const root = join(__dirname, '..', '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'));

describe('docker-compose.yml', () => {
  it('should define postgres, redis, api, worker and web, each with a healthcheck', () => {
    for (const name of ['postgres', 'redis', 'api', 'worker', 'web']) {
      expect(compose.services[name]).toBeDefined();
      expect(compose.services[name].healthcheck?.test).toBeDefined();
    }
  });

  it('should build from Dockerfiles that exist in the repository', () => {
    const builds = Object.values<any>(compose.services).filter((s) => s.build);
    expect(builds.length).toBeGreaterThanOrEqual(2);
    for (const s of builds) expect(existsSync(join(root, s.build.context, s.build.dockerfile))).toBe(true);
  });

  it('should run api and worker from one server image with the role as command', () => {
    expect(compose.services.api.image).toBe(compose.services.worker.image);
    expect(compose.services.api.command).toEqual(['api']);
    expect(compose.services.worker.command).toEqual(['worker']);
    expect(readFileSync(join(root, 'infra/server/entrypoint.sh'), 'utf8')).toMatch(/api\)[\s\S]*migrate deploy/);
  });

  it('should start the api only when postgres and redis are healthy', () => {
    expect(compose.services.api.depends_on.postgres.condition).toBe('service_healthy');
    expect(compose.services.api.depends_on.redis.condition).toBe('service_healthy');
  });

  it('should keep data in named volumes', () => {
    const declared = Object.keys(compose.volumes);
    const used = Object.values<any>(compose.services)
      .flatMap((s) => s.volumes ?? [])
      .map((v: string) => v.split(':')[0])
      .filter((v: string) => !v.startsWith('/'));
    expect(used.length).toBeGreaterThanOrEqual(3);
    for (const v of used) expect(declared).toContain(v);
  });

  it('should require a master key instead of silently generating one per container', () => {
    expect(compose['x-server-env'].H_MASTER_KEY).toMatch(/\$\{H_MASTER_KEY:\?/);
  });

  it('should publish only the api port', () => {
    const published = Object.entries<any>(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([n]) => n)).toEqual(['api']);
  });
});

describe('.env.example', () => {
  const documented = new Set(
    readFileSync(join(root, '.env.example'), 'utf8')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => l.split('=')[0]),
  );

  it('should document every variable of the env schema', () => {
    const missing = Object.keys(envSchema.shape).filter((k) => !documented.has(k));
    expect(missing).toEqual([]);
  });
});
