import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostEnv } from '@h/config';
import { longRunningReason } from '../command-policy';
import { distillOutput } from '../distill';
import { createToolKit, type ToolKit } from '../testing/tool-test-kit';
import { CORE_TOOLS, ToolRegistry } from '../tool.registry';

describe('command tools', () => {
  let kit: ToolKit;
  beforeEach(() => (kit = createToolKit()));
  afterEach(() => kit.cleanup());

  describe('run_command', () => {
    it('should return short output verbatim with the exit code', async () => {
      const res = await kit.call('run_command', { command: 'echo hi; echo oops >&2; exit 2' });
      expect(res.text).toMatch(/^exit 2 \(\d+\.\ds\)\nhi\noops$/);
      expect(res.data).toMatchObject({ exitCode: 2 });
      expect(res.isError).toBeFalsy();
    });

    it('should distill long output to key lines and keep the full text for read_command_output', async () => {
      const script = 'for i in $(seq 1 300); do echo "ok line $i"; done; echo "  ● sum adds"; echo "    Expected: 5"; echo "    Received: -1"; echo "Tests: 1 failed, 3 passed"; exit 1';
      const res = await kit.call('run_command', { command: script });
      expect(res.text).toMatch(/^\[cmd #1\] exit 1 .*, 304 lines; key lines:/);
      expect(res.text).toContain('Expected: 5');
      expect(res.text).toContain('Received: -1');
      expect(res.text).toContain('Tests: 1 failed, 3 passed');
      expect(res.text).not.toContain('ok line 17\n');
      expect(res.text).toContain('read_command_output cmd_id=1');
      expect(res.output).toMatchObject({ id: 1, truncated: false });

      const page = await kit.call('read_command_output', { cmd_id: 1, offset: 10, limit: 2 });
      expect(page.text).toBe(`[cmd #1] ${script}: 304 lines, showing 10-11\n10\tok line 10\n11\tok line 11`);
      const filtered = await kit.call('read_command_output', { cmd_id: 1, filter: 'expected|received' });
      expect(filtered.text).toContain('2 of 304 lines match');
      expect(filtered.text).toContain('302\t    Expected: 5');
    });

    it('should run in a sub-directory and strip secrets from the environment', async () => {
      const replaced = jest.replaceProperty(process, 'env', { ...hostEnv(), MY_SECRET_TOKEN: 'leak' });
      try {
        await kit.call('create_directory', { path: 'sub' });
        const res = await kit.call('run_command', { command: 'basename "$PWD"; echo "[$MY_SECRET_TOKEN]" "$CI"', cwd: 'sub' });
        expect(res.text).toContain('sub\n[] 1');
      } finally {
        replaced.restore();
      }
    });

    it('should refuse servers and background jobs naming only tools that are offered', async () => {
      const noTerminal = new ToolRegistry(CORE_TOOLS.filter((t) => t.name !== 'run_in_terminal' && t.name !== 'kill_terminal'));
      for (const command of ['npm start', 'npm run dev', 'npx vite', 'tail -f app.log', 'node server.js', 'flask run', 'jest --watchAll', 'sleep 5 &']) {
        const res = await noTerminal.run('run_command', JSON.stringify({ command }), kit.ctx);
        expect(res.isError).toBe(true);
        expect(res.text).toContain('only runs commands that finish');
        // Without a terminal tool the refusal must not send the model to one.
        expect(res.text).not.toContain('run_in_terminal');
        expect(res.text).toContain('tell the user the command');
      }
      // The core set has run_in_terminal: server commands are sent there (seed).
      const res = await kit.call('run_command', { command: 'npm run dev' });
      expect(res.text).toContain('with run_in_terminal');
    });

    it('should run commands that only look like servers or backgrounding', async () => {
      const res = await kit.call('run_command', { command: `echo "a=1&b=2" && echo x | sed 's/x/&y/' && echo serve` });
      expect(res.isError).toBeFalsy();
      expect(res.text).toContain('a=1&b=2\nxy\nserve');
    });

    it('should kill the command at its timeout', async () => {
      const res = await kit.call('run_command', { command: 'echo started; sleep 30', timeout: 1 });
      expect(res.text).toMatch(/^timed out after 1s \(killed\)/);
      expect(res.data).toMatchObject({ timedOut: true });
    });

    it('should fail for a cwd outside the workspace', async () => {
      expect((await kit.call('run_command', { command: 'ls', cwd: '..' })).text).toContain('PATH_OUTSIDE_WORKSPACE');
    });
  });

  describe('read_command_output', () => {
    it('should fail for an unknown id or a bad filter', async () => {
      expect(await kit.call('read_command_output', { cmd_id: 9 })).toMatchObject({ isError: true, text: expect.stringContaining('No output [cmd #9]') });
      await kit.ctx.outputs.add({ label: 'x', text: 'a\nb' });
      expect((await kit.call('read_command_output', { cmd_id: 1, filter: '[' })).text).toContain('invalid filter');
    });
  });

  describe('read_problems', () => {
    it('should say nothing was detected for an unknown project', async () => {
      const res = await kit.call('read_problems');
      expect(res.text).toContain('0 errors');
      expect(kit.ctx.state.problems).toMatchObject({ errorCount: 0, source: 'none' });
    });

    it('should run the build script and count errors when it fails', async () => {
      writeFileSync(join(kit.dir, 'package.json'), JSON.stringify({ scripts: { build: 'echo "src/a.ts(1,1): error TS2304: nope" && exit 2' } }));
      const res = await kit.call('read_problems');
      expect(res.text).toMatch(/^1 error, 0 warnings from `npm run build 2>&1`/);
      expect(kit.ctx.state.problems?.errorCount).toBe(1);
      writeFileSync(join(kit.dir, 'package.json'), JSON.stringify({ scripts: { build: 'echo built' } }));
      expect((await kit.call('read_problems')).text).toMatch(/^0 errors/);
      expect(kit.ctx.state.problems?.errorCount).toBe(0);
    });

    it('should prefer language-server diagnostics when a source provides them', async () => {
      kit.ctx.diagnostics = async () => ({ errorCount: 2, warningCount: 0, source: 'lsp', text: '2 errors (lsp)' });
      expect((await kit.call('read_problems')).text).toBe('2 errors (lsp)');
      expect(kit.ctx.state.problems?.errorCount).toBe(2);
    });
  });
});

describe(longRunningReason.name, () => {
  it('should allow commands that finish', () => {
    for (const c of ['npm test', 'npx jest', 'npm run build', 'vite build', 'node test.js', 'cmd 2>&1', 'a && b', 'git status', 'tsc --noEmit', 'python -m pytest']) {
      expect([c, longRunningReason(c)]).toEqual([c, null]);
    }
  });
});

describe(distillOutput.name, () => {
  it('should keep short output as it is and strip ANSI colours', () => {
    expect(distillOutput('\x1b[31mred\x1b[0m\nok\n')).toEqual({ text: 'red\nok', distilled: false, totalLines: 2 });
  });
});

describe('distillOutput priorities', () => {
  it('should keep a failure buried under hundreds of passing lines', () => {
    const raw = [...Array.from({ length: 300 }, (_, i) => `PASS suite${i}.test.js`), 'FAIL math.test.js', '  Expected: 5', 'Tests: 1 failed, 300 passed'].join('\n');
    const { text, distilled } = distillOutput(raw);
    expect(distilled).toBe(true);
    expect(text).toContain('FAIL math.test.js\n  Expected: 5\nTests: 1 failed, 300 passed');
    expect(text.length).toBeLessThanOrEqual(2000);
  });
});
