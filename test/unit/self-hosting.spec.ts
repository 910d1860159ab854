import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { envSchema } from '@h/config';

// Quick checks of what would break a self-hoster's first start: a service missing, a Dockerfile path
// that does not exist, a dependency that does not wait for health, an undocumented variable. The
// stack itself is started for real by test/e2e/compose/compose.e2e-spec.ts (images built without a
// registry by infra/compose/build-images.sh).
const root = join(__dirname, '..', '..');
const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
// Compose resolves YAML merge keys (`<<: *server-env`); so must the parse.
const compose = parse(composeText, { merge: true });
const documented = new Set(
  readFileSync(join(root, '.env.example'), 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l))
    .map((l) => l.split('=')[0]),
);

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
    // Both roles migrate first, through the lock (scripts/migrate.mjs), which the image must carry.
    const entrypoint = readFileSync(join(root, 'infra/server/entrypoint.sh'), 'utf8');
    expect(entrypoint).toMatch(/ api\)\s+node scripts\/migrate\.mjs\s/);
    expect(entrypoint).toMatch(/ worker\)\s+node scripts\/migrate\.mjs\s/);
    expect(readFileSync(join(root, 'infra/server/Dockerfile'), 'utf8')).toMatch(/COPY .*scripts\/migrate\.mjs/);
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
      // Host paths: literal, or the egress socket dir's `${EGRESS_SOCKET_DIR:-/var/lib/h/egress}`.
      .filter((v: string) => !v.startsWith('/') && !v.startsWith('${'));
    expect(used.length).toBeGreaterThanOrEqual(3);
    for (const v of used) expect(declared).toContain(v);
  });

  it('should require a master key and a database password instead of falling back to one', () => {
    expect(compose['x-server-env'].H_MASTER_KEY).toMatch(/^\$\{H_MASTER_KEY:\?/);
    expect(compose['x-server-env'].DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
    expect(compose.services.postgres.environment.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(composeText).not.toMatch(/\$\{(H_MASTER_KEY|POSTGRES_PASSWORD):-/);
  });

  it('should publish only the api port, on 127.0.0.1 unless H_BIND says otherwise', () => {
    const published = Object.entries<any>(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([n]) => n)).toEqual(['api']);
    for (const port of compose.services.api.ports) expect(String(port)).toMatch(/^\$\{H_BIND:-127\.0\.0\.1\}:/);
  });

  it("should give the engine's socket to the docker proxy alone, and the worker only the proxy's", () => {
    const withSocket = Object.entries<any>(compose.services)
      .filter(([, s]) => (s.volumes ?? []).some((v: string) => v.split(':')[0] === '/var/run/docker.sock'))
      .map(([n]) => n);
    expect(withSocket).toEqual(['docker-proxy']);
    const worker = compose.services.worker;
    expect(worker.environment.DOCKER_HOST).toBe('unix:///run/h-docker/docker.sock');
    expect(worker.volumes).toContain('docker-proxy-socket:/run/h-docker');
    expect(worker.depends_on['docker-proxy'].condition).toBe('service_healthy');
    const proxy = compose.services['docker-proxy'];
    expect(proxy.command).toEqual(['docker-proxy']);
    expect(proxy.image).toBe(compose.services.api.image);
    expect(proxy.network_mode).toBe('none');
    expect(proxy.environment.DOCKER_PROXY_SOCKET).toBe('/run/h-docker/docker.sock');
    expect(readFileSync(join(root, 'infra/server/entrypoint.sh'), 'utf8')).toMatch(/docker-proxy\)[\s\S]*apps\/docker-proxy\/src\/main\.js/);
  });

  // What each documented variable is, in compose: passed from .env to api and worker (the default),
  // set by compose itself for the containers, or read only outside the servers.
  const SET_BY_COMPOSE = ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'WEB_INTERNAL_URL', 'H_HOST', 'H_PORT', 'H_DATA_DIR'];
  const NOT_FOR_SERVERS: Record<string, string> = {
    WEB_PORT: 'scripts/start.sh runs the web on it; the web container listens on 3001',
    H_START_TIMEOUT_S: "scripts/start.sh's readiness wait",
    POSTGRES_PASSWORD: 'the postgres service and DATABASE_URL',
    H_BIND: 'the address the api port is published on',
    DOCKER_HOST: "set by compose on the worker: the docker proxy's socket",
    DOCKER_PROXY_SOCKET: 'set by compose on the docker-proxy service',
    DOCKER_PROXY_UPSTREAM: 'set by compose on the docker-proxy service',
    DOCKER_PROXY_SOCKET_OWNER: 'set by compose on the docker-proxy service',
    DOCKER_PROXY_BIND_DIRS: 'passed to the docker-proxy service',
  };
  // Read by the worker alone; compose sets the health port (its healthcheck calls it) and its bind
  // address (Prometheus scrapes /metrics over the compose network).
  const WORKER_ONLY = ['WORKER_HEALTH_PORT', 'WORKER_HEALTH_HOST', 'WORKER_HEALTH_MAX_LAG_MS', 'WORKER_STALL_EXIT_MS'];
  const SET_ON_WORKER = ['WORKER_HEALTH_PORT', 'WORKER_HEALTH_HOST'];

  it('should default to the public images and let H_*_IMAGE select ones built without a registry', () => {
    const images = Object.fromEntries(Object.entries<any>(compose.services).map(([name, s]) => [name, s.image]));
    expect(images).toMatchObject({
      postgres: '${H_POSTGRES_IMAGE:-postgres:16-bookworm}',
      redis: '${H_REDIS_IMAGE:-redis:7-bookworm}',
      api: '${H_SERVER_IMAGE:-h-server:latest}',
      worker: '${H_SERVER_IMAGE:-h-server:latest}',
      'docker-proxy': '${H_SERVER_IMAGE:-h-server:latest}',
      web: '${H_WEB_IMAGE:-h-web:latest}',
    });
    // infra/compose/build-images.sh prints exactly these variables.
    const script = readFileSync(join(root, 'infra/compose/build-images.sh'), 'utf8');
    for (const v of ['H_SERVER_IMAGE', 'H_WEB_IMAGE']) expect(script).toContain(`echo "${v}=`);
    expect(script).toContain('echo "H_$(echo "$svc" | tr a-z A-Z)_IMAGE=$tag"');
  });

  it("should keep to what Debian's docker-compose 1.29 parses (no top-level name)", () => {
    expect(Object.keys(compose).sort()).toEqual(['services', 'volumes', 'x-server-env']);
  });

  it("should let the docker proxy's own health check (root without capabilities) open its socket", () => {
    const proxy = compose.services['docker-proxy'];
    expect(proxy.user).toBe('0:0');
    expect(proxy.cap_drop).toEqual(['ALL']);
    // Owner: the api's and worker's user; group root, which the health check runs as.
    expect(proxy.environment.DOCKER_PROXY_SOCKET_OWNER).toBe('1000:0');
  });

  it('should give api and worker the egress socket dir at its host path, and the proxy leave to bind it', () => {
    const dir = '${EGRESS_SOCKET_DIR:-/var/lib/h/egress}';
    for (const name of ['api', 'worker']) {
      expect(compose.services[name].environment.EGRESS_SOCKET_DIR).toBe(dir);
      expect(compose.services[name].volumes).toContain(`${dir}:${dir}`);
      expect(compose.services[name].depends_on['egress-dir'].condition).toBe('service_completed_successfully');
    }
    expect(compose.services['docker-proxy'].environment.DOCKER_PROXY_BIND_DIRS).toBe('${DOCKER_PROXY_BIND_DIRS:-/var/lib/h/egress}');
    expect(compose.services['egress-dir'].volumes).toEqual([`${dir}:${dir}`]);
  });

  it('should pass every variable .env.example documents to the api and the worker', () => {
    for (const name of ['api', 'worker']) {
      const env = compose.services[name].environment;
      const missing = [...documented].filter((k) => !(k in env) && !(k in NOT_FOR_SERVERS) && (name === 'worker' || !WORKER_ONLY.includes(k)));
      expect({ service: name, missing }).toEqual({ service: name, missing: [] });
      for (const k of documented) {
        if (k in NOT_FOR_SERVERS || SET_BY_COMPOSE.includes(k) || SET_ON_WORKER.includes(k) || (name === 'api' && WORKER_ONLY.includes(k))) continue;
        // From .env, so a self-hoster's setting arrives (an empty value means the schema's default).
        expect({ k, v: env[k] }).toEqual({ k, v: expect.stringMatching(new RegExp(`^\\$\\{${k}(:[-?]|\\})`)) });
      }
    }
    for (const k of ['POSTGRES_PASSWORD', 'H_BIND']) expect(composeText).toContain(`\${${k}:`);
    for (const k of Object.keys(NOT_FOR_SERVERS).filter((n) => n.startsWith('DOCKER_PROXY_'))) {
      expect(compose.services['docker-proxy'].environment[k]).toBeDefined();
    }
  });
});

describe('.env.example', () => {
  it('should document every variable of the env schema', () => {
    const missing = Object.keys(envSchema.shape).filter((k) => !documented.has(k));
    expect(missing).toEqual([]);
  });
});
