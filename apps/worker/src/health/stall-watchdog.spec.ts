import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformFileSync } from '@swc/core';
import { STALL_LOG_MESSAGE, startStallWatchdog } from './stall-watchdog';

// A real process whose main loop stops answering: the module is compiled to plain JS and loaded
// by a node child, which then busy-loops (or, for the control case, stays responsive and exits).
describe(startStallWatchdog.name, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'h-watchdog-'));
    const js = transformFileSync(join(__dirname, 'stall-watchdog.ts'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    }).code;
    writeFileSync(join(dir, 'stall-watchdog.js'), js);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function runChild(body: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
    const script = `const { startStallWatchdog } = require(${JSON.stringify(join(dir, 'stall-watchdog.js'))});\n${body}`;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
    });
  }

  it('should kill a process whose event loop stops answering, after logging the stall', async () => {
    const logFile = join(dir, 'worker.log');
    const res = await runChild(
      `startStallWatchdog({ stallMs: 1000, logFile: ${JSON.stringify(logFile)} });\n` +
        // Busy forever once the loop has run a little: only the watchdog can end this process.
        'setTimeout(() => { for (;;) {} }, 300);',
    );
    expect(res).toMatchObject({ code: null, signal: 'SIGKILL' });
    const line = JSON.parse(res.stderr.trim().split('\n').at(-1) ?? '{}');
    expect(line).toMatchObject({ level: 60, msg: STALL_LOG_MESSAGE, limitMs: 1000 });
    expect(line.stalledMs).toBeGreaterThanOrEqual(1000);
    expect(readFileSync(logFile, 'utf8')).toContain(STALL_LOG_MESSAGE);
  });

  it('should leave a responsive process alone and not keep it alive', async () => {
    const res = await runChild(
      'startStallWatchdog({ stallMs: 1000 });\n' +
        // Short blocks below the limit, for longer than the limit in total, then a normal exit.
        'let n = 0; const t = setInterval(() => { const s = Date.now(); while (Date.now() - s < 200) {} if (++n === 12) clearInterval(t); }, 50);',
    );
    expect(res).toEqual({ code: 0, signal: null, stderr: '' });
  });

  it('should stop when asked', async () => {
    const res = await runChild('const w = startStallWatchdog({ stallMs: 1000 }); w.stop().then(() => { const s = Date.now(); while (Date.now() - s < 2000) {} });');
    expect(res).toEqual({ code: 0, signal: null, stderr: '' });
  });
});
