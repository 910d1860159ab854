import { browserInputSchema, browserSchemas, browserUrl } from './browser-payloads';

const workspaceId = '8d7f4a52-0b7e-4f1c-9f5e-2a3c1d6b7e90';
const viewport = { width: 1024, height: 768 };

describe('browserSchemas', () => {
  it('should accept http and https addresses and refuse other schemes', () => {
    expect(browserUrl.safeParse('http://localhost:3000/login').success).toBe(true);
    expect(browserUrl.safeParse('https://example.test').success).toBe(true);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'chrome://settings', 'localhost:3000', '', 'x'.repeat(5000)]) {
      expect(browserUrl.safeParse(bad).success).toBe(false);
    }
  });

  it('should require a tab id when a tab is closed or activated', () => {
    expect(browserSchemas.tab.safeParse({ workspaceId, action: 'open' }).success).toBe(true);
    expect(browserSchemas.tab.safeParse({ workspaceId, action: 'close' }).success).toBe(false);
    expect(browserSchemas.tab.safeParse({ workspaceId, action: 'activate', tabId: 't1' }).success).toBe(true);
  });

  it('should refuse a history action it does not know', () => {
    expect(browserSchemas.history.safeParse({ workspaceId, action: 'home' }).success).toBe(false);
  });
});

describe('browserInputSchema', () => {
  const schema = browserInputSchema(viewport);

  it('should accept a click inside the viewport', () => {
    expect(schema.safeParse({ kind: 'mouse', type: 'down', x: 10, y: 700, button: 'left', clickCount: 1 }).success).toBe(true);
  });

  it('should refuse points outside the viewport and numbers that are not finite', () => {
    for (const bad of [
      { kind: 'mouse', type: 'down', x: 1025, y: 1 },
      { kind: 'mouse', type: 'down', x: -1, y: 1 },
      { kind: 'mouse', type: 'move', x: Number.NaN, y: 1 },
      { kind: 'mouse', type: 'wheel', x: 1, y: 1, deltaY: Number.POSITIVE_INFINITY },
      { kind: 'mouse', type: 'wheel', x: 1, y: 1, deltaY: 1e9 },
    ]) {
      expect(schema.safeParse(bad).success).toBe(false);
    }
  });

  it('should accept a key and refuse an overlong key string or extra fields', () => {
    expect(schema.safeParse({ kind: 'key', type: 'down', key: 'a', code: 'KeyA', text: 'a', modifiers: 8 }).success).toBe(true);
    expect(schema.safeParse({ kind: 'key', type: 'down', key: 'a'.repeat(33) }).success).toBe(false);
    expect(schema.safeParse({ kind: 'key', type: 'down', key: 'a', modifiers: 16 }).success).toBe(false);
    expect(schema.safeParse({ kind: 'key', type: 'down', key: 'a', script: 'x' }).success).toBe(false);
    expect(schema.safeParse({ kind: 'touch', type: 'down' }).success).toBe(false);
  });
});
