import { parseArgs } from './main';

describe(parseArgs.name, () => {
  it('should default to port 4010 on loopback with the shipped scenarios', () => {
    const options = parseArgs([], {});
    expect(options).toMatchObject({ port: 4010, host: '127.0.0.1' });
    expect(options.scenarios).toMatch(/libs[\\/]scripted-model[\\/]scenarios$/);
  });

  it('should take --port over MODEL_SERVER_PORT and --scenarios over the default', () => {
    expect(parseArgs(['--port', '0', '--scenarios', '/tmp/s'], { MODEL_SERVER_PORT: '5000' })).toMatchObject({ port: 0, scenarios: '/tmp/s' });
    expect(parseArgs([], { MODEL_SERVER_PORT: '5000' }).port).toBe(5000);
    expect(parseArgs(['--api-key', 'sk-x'], {}).apiKey).toBe('sk-x');
    expect(parseArgs(['--timings'], {}).timings).toBe(true);
    expect(parseArgs([], {}).timings).toBe(false);
  });

  it('should refuse a port that is not one', () => {
    expect(() => parseArgs(['--port', 'http'], {})).toThrow(/invalid port/);
  });
});
