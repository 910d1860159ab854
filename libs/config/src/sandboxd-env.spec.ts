import { sandboxdEnv } from './sandboxd-env';
import { toolEnv } from './tool-env';

describe(sandboxdEnv.name, () => {
  it('should apply the defaults when the driver set nothing', () => {
    expect(sandboxdEnv({})).toEqual({ SANDBOXD_DISK_MB: 0, SANDBOXD_RG: 'rg', SANDBOXD_EXIT_WITH_PARENT: false });
  });

  it('should read what the container spec sets and ignore other variables', () => {
    const env = sandboxdEnv({ SANDBOXD_DISK_MB: '512', SANDBOXD_EGRESS_SOCKET: '/run/h/egress/egress.sock', SANDBOXD_EXIT_WITH_PARENT: '1', DATABASE_URL: 'x' });
    expect(env).toMatchObject({ SANDBOXD_DISK_MB: 512, SANDBOXD_EGRESS_SOCKET: '/run/h/egress/egress.sock', SANDBOXD_EXIT_WITH_PARENT: true });
    expect(env).not.toHaveProperty('DATABASE_URL');
  });

  it('should refuse a bad value and name the variable', () => {
    expect(() => sandboxdEnv({ SANDBOXD_EGRESS_PORT: 'http' })).toThrow(/SANDBOXD_EGRESS_PORT/);
  });
});

describe(toolEnv.name, () => {
  it('should pick only its own variables and treat empty as unset', () => {
    expect(toolEnv({ MODEL_SERVER_PORT: '4011', API_INTERNAL_URL: '', PATH: '/bin' })).toEqual({ MODEL_SERVER_PORT: '4011' });
  });

  it('should refuse an API_INTERNAL_URL that is not a URL', () => {
    expect(() => toolEnv({ API_INTERNAL_URL: '127.0.0.1:3000' })).toThrow(/API_INTERNAL_URL/);
  });
});
