import { join, resolve } from 'node:path';
import { AppConfig } from './app-config';
import { ConfigError, envValue, parseEnv } from './env.schema';

describe(parseEnv.name, () => {
  it('should apply documented defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(env.H_PORT).toBe(3000);
    expect(env.BODY_LIMIT).toBe('1mb');
    expect(env.SIGNUP_POLICY).toBeUndefined();
    expect(env.TEAM_MAX_WORKSPACES).toBe(20);
  });

  it('should default the sign-up policy to open in development and invite elsewhere', () => {
    expect(new AppConfig(parseEnv({ NODE_ENV: 'development' })).signupPolicy).toBe('open');
    expect(new AppConfig(parseEnv({ NODE_ENV: 'production' })).signupPolicy).toBe('invite');
    expect(new AppConfig(parseEnv({ NODE_ENV: 'test' })).signupPolicy).toBe('invite');
  });

  it('should honour SIGNUP_POLICY over the deprecated SIGNUP_ENABLED alias', () => {
    expect(new AppConfig(parseEnv({ NODE_ENV: 'production', SIGNUP_ENABLED: 'true' })).signupPolicy).toBe('open');
    expect(new AppConfig(parseEnv({ NODE_ENV: 'development', SIGNUP_ENABLED: 'false' })).signupPolicy).toBe('closed');
    expect(new AppConfig(parseEnv({ SIGNUP_ENABLED: 'true', SIGNUP_POLICY: 'closed' })).signupPolicy).toBe('closed');
    expect(() => parseEnv({ SIGNUP_POLICY: 'everyone' })).toThrow(/SIGNUP_POLICY/);
  });

  it('should refuse a bad port and name the variable', () => {
    expect(() => parseEnv({ H_PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseEnv({ H_PORT: 'eighty' })).toThrow(/H_PORT/);
  });

  it('should refuse a master key that is not 32 bytes', () => {
    expect(() => parseEnv({ H_MASTER_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/H_MASTER_KEY/);
    expect(parseEnv({ H_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') }).H_MASTER_KEY).toBeDefined();
  });

  it('should treat empty strings as unset', () => {
    expect(parseEnv({ REDIS_URL: '' }).REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('should turn the web proxy off when WEB_INTERNAL_URL is empty, as .env.example says', () => {
    expect(parseEnv({ WEB_INTERNAL_URL: '' }).WEB_INTERNAL_URL).toBe('');
    expect(parseEnv({}).WEB_INTERNAL_URL).toBe('http://127.0.0.1:3001');
  });

  it('should refuse the egress loopback test allowance in production', () => {
    expect(parseEnv({ H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS: 'true', NODE_ENV: 'test' }).H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS).toBe(true);
    expect(() => parseEnv({ H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS: 'true', NODE_ENV: 'production' })).toThrow(/H_EGRESS_ALLOW_LOOPBACK_FOR_TESTS/);
  });

  it('should read egress ports as a list and keep network access admin-only by default', () => {
    expect(parseEnv({}).EGRESS_PORTS).toEqual([80, 443]);
    expect(parseEnv({ EGRESS_PORTS: '443,8443' }).EGRESS_PORTS).toEqual([443, 8443]);
    expect(() => parseEnv({ EGRESS_PORTS: '443;22' })).toThrow(/EGRESS_PORTS/);
    expect(parseEnv({}).NETWORK_ENABLE_MIN_ROLE).toBe('admin');
    expect(() => parseEnv({ NETWORK_ENABLE_MIN_ROLE: 'viewer' })).toThrow(/NETWORK_ENABLE_MIN_ROLE/);
  });

  it('should put sandbox sockets under the data dir only for a local engine, unless set or turned off', () => {
    const dir = (env: Record<string, string>) => new AppConfig(parseEnv({ H_DATA_DIR: '/srv/h', ...env }));
    expect(dir({}).sandboxSocketDir).toBe('/srv/h/sandbox-sockets');
    expect(dir({}).sandboxSocketDirIsDefault).toBe(true);
    // A remote or proxied engine (compose's socket proxy) cannot mount a dir of this process.
    expect(dir({ DOCKER_HOST: 'unix:///run/h-docker/docker.sock' }).sandboxSocketDir).toBeUndefined();
    expect(dir({ SANDBOX_SOCKET_DIR: 'off' }).sandboxSocketDir).toBeUndefined();
    expect(dir({ SANDBOX_SOCKET_DIR: '/run/h-sockets', DOCKER_HOST: 'tcp://docker:2375' }).sandboxSocketDir).toBe('/run/h-sockets');
    expect(dir({ SANDBOX_SOCKET_DIR: '/run/h-sockets' }).sandboxSocketDirIsDefault).toBe(false);
    expect(dir({ SANDBOX_SOCKET_DIR: '' }).sandboxSocketDir).toBe('/srv/h/sandbox-sockets'); // empty: unset
    expect(parseEnv({}).EVENT_COMMIT).toBe('barriers');
    expect(() => parseEnv({ EVENT_COMMIT: 'sometimes' })).toThrow(/EVENT_COMMIT/);
  });

  it("should accept express's trust proxy forms and refuse anything else by name", () => {
    for (const v of ['loopback', 'false', '172.18.0.1', '10.0.0.0/8, loopback', 'fd00::/8', '1']) expect(parseEnv({ TRUST_PROXY: v }).TRUST_PROXY).toBe(v);
    for (const v of ['yes please', '300.1.1.1', '10.0.0.0/33', 'loopback;rm']) expect(() => parseEnv({ TRUST_PROXY: v })).toThrow(/TRUST_PROXY/);
  });
});

describe(envValue.name, () => {
  it('should parse one variable with the schema default and checks', () => {
    expect(envValue('RUN_LOCK_MS', {})).toBe(15000);
    expect(envValue('RUN_LOCK_MS', { RUN_LOCK_MS: '30000' })).toBe(30000);
    expect(() => envValue('RUN_LOCK_MS', { RUN_LOCK_MS: '5' })).toThrow(/RUN_LOCK_MS/);
  });
});

describe(AppConfig.name, () => {
  it('should derive every data directory from the one H_DATA_DIR default', () => {
    const config = new AppConfig(parseEnv({}));
    const data = resolve('./var/data');
    expect(resolve(config.env.H_DATA_DIR)).toBe(data);
    expect([config.sandboxLocalDir, config.sandboxDiskDir, config.egressSocketDir]).toEqual([
      join(data, 'workspaces'),
      join(data, 'sandbox-disks'),
      join(data, 'egress'),
    ]);
    expect(new AppConfig(parseEnv({ H_DATA_DIR: '/srv/h', SANDBOX_LOCAL_DIR: '/tmp/ws' })).sandboxLocalDir).toBe('/tmp/ws');
  });
});
