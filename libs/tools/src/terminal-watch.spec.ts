import { detectLoopbackUrls, errorLine, keyLines, KEY_CHARS_MAX, KEY_LINES_MAX, serverStartedLine } from './terminal-watch';

describe('terminal output rules', () => {
  describe(detectLoopbackUrls.name, () => {
    it('should find loopback URLs with a port, each once and in order', () => {
      const out = 'Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...\n  Local: http://localhost:5173/\n  again http://localhost:5173/\n[::1] http://[::1]:3000/app?x=1, https://127.0.0.1:8443.';
      expect(detectLoopbackUrls(out)).toEqual(['http://0.0.0.0:8000/', 'http://localhost:5173/', 'http://[::1]:3000/app?x=1', 'https://127.0.0.1:8443']);
    });

    it('should ignore hosts that are not loopback, URLs without a port and impossible ports', () => {
      expect(detectLoopbackUrls('http://localhost/ http://example.org:8080/ http://10.0.0.2:80/ http://localhost:99999/ http://localhost.example.org:80/')).toEqual([]);
    });

    it('should read through colour codes', () => {
      expect(detectLoopbackUrls('\x1b[32m➜\x1b[0m  Local: \x1b[36mhttp://localhost:\x1b[1m5173\x1b[22m/\x1b[39m')).toEqual(['http://localhost:5173/']);
    });
  });

  it('should tell a server-started line and an error line', () => {
    expect(serverStartedLine('booting\nServing HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...')).toContain('Serving HTTP');
    expect(serverStartedLine('  VITE v5  ready in 300 ms')).toContain('ready in');
    expect(serverStartedLine('Listening on :3000')).toContain('Listening');
    expect(serverStartedLine('compiling...')).toBeNull();
    expect(errorLine('Traceback (most recent call last):\n  File "app.py"')).toContain('Traceback');
    expect(errorLine("ModuleNotFoundError: No module named 'flask'")).toContain('ModuleNotFoundError');
    expect(errorLine('Error: listen EADDRINUSE: address already in use :::3000')).toContain('EADDRINUSE');
    expect(errorLine('all good')).toBeNull();
  });

  describe(keyLines.name, () => {
    it('should return short output as it is', () => {
      expect(keyLines('one\ntwo\n')).toEqual({ text: 'one\ntwo', totalLines: 2, distilled: false });
    });

    it('should keep at most 8 lines and 1,200 characters, errors and URLs first', () => {
      const noise = Array.from({ length: 300 }, (_, i) => `GET /asset-${i}.js 200 ${'x'.repeat(40)}`);
      const out = ['starting', ...noise.slice(0, 150), 'Error: cannot read config.json', ...noise.slice(150), 'Server at http://localhost:8000/'].join('\n');
      const k = keyLines(out);
      expect(k.distilled).toBe(true);
      const kept = k.text.split('\n').filter((l) => l !== '…');
      expect(kept.length).toBeLessThanOrEqual(KEY_LINES_MAX);
      expect(k.text.length).toBeLessThanOrEqual(KEY_CHARS_MAX + KEY_LINES_MAX * 2);
      expect(k.text).toContain('Error: cannot read config.json');
      expect(k.text).toContain('http://localhost:8000/');
    });
  });
});
