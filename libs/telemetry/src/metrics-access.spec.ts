import { metricsAccess } from './metrics-access';

describe(metricsAccess.name, () => {
  const token = 'metrics-token-0123456789';

  it('should let only the configured bearer token in', () => {
    expect(metricsAccess(`Bearer ${token}`, token)).toBe('ok');
    expect(metricsAccess(`bearer ${token}`, token)).toBe('ok');
    expect(metricsAccess(`Bearer ${token}x`, token)).toBe('unauthorized');
    expect(metricsAccess(`Basic ${token}`, token)).toBe('unauthorized');
    expect(metricsAccess(undefined, token)).toBe('unauthorized');
  });

  it('should report the endpoint off when no token is configured, whatever the caller sends', () => {
    expect(metricsAccess('Bearer anything', undefined)).toBe('disabled');
    expect(metricsAccess(undefined, '')).toBe('disabled');
  });
});
