import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToolKit, type ToolKit } from '../testing/tool-test-kit';
import type { AgentTerminal, RunningTerminal, TerminalHost } from '../terminal-host';
import type { ToolEvent } from '../tool.types';

/** A terminal whose output and exit the test plays; the tool sees what a sandbox terminal would send. */
class ScriptedTerminal implements RunningTerminal {
  private data: ((d: string) => void) | null = null;
  private exit: ((code: number | null) => void) | null = null;
  released = false;
  constructor(readonly id: string, readonly command: string) {}
  onData(l: (d: string) => void) {
    this.data = l;
  }
  onExit(l: (code: number | null) => void) {
    this.exit = l;
  }
  release() {
    this.released = true;
  }
  print(text: string) {
    this.data?.(text);
  }
  end(code: number) {
    this.exit?.(code);
  }
}

class ScriptedHost implements TerminalHost {
  readonly terminals: ScriptedTerminal[] = [];
  closed: string[] = [];
  constructor(private readonly play: (t: ScriptedTerminal) => void) {}
  async run(command: string) {
    const t = new ScriptedTerminal(`t-${this.terminals.length}`, command);
    this.terminals.push(t);
    setImmediate(() => this.play(t));
    return t;
  }
  async own(): Promise<AgentTerminal[]> {
    return this.terminals.filter((t) => !this.closed.includes(t.id)).map((t, i) => ({ id: t.id, command: t.command, createdAt: i }));
  }
  async close(id: string) {
    this.closed.push(id);
  }
}

describe('terminal tools', () => {
  let kit: ToolKit;
  let events: ToolEvent[];
  beforeEach(() => {
    kit = createToolKit();
    events = [];
    kit.ctx.emit = async (e) => void events.push(e);
  });
  afterEach(() => kit.cleanup());

  describe('run_in_terminal', () => {
    it('should return once the program exits, with its exit code and output', async () => {
      kit.ctx.terminals = new ScriptedHost((t) => {
        t.print('compiling\r\n');
        t.end(2);
      });
      const res = await kit.call('run_in_terminal', { command: 'make' });
      expect(res.text).toMatch(/^exited with code 2 after [\d.]+s\ncompiling$/);
      expect(res.data).toMatchObject({ state: 'exited', exitCode: 2 });
    });

    it('should return on an error line with the traceback flushed, the terminal left running', async () => {
      const host = new ScriptedHost((t) => {
        t.print('Traceback (most recent call last):\r\n');
        setTimeout(() => t.print('  File "app.py", line 1\r\nModuleNotFoundError: No module named \'flask\'\r\n'), 50);
      });
      kit.ctx.terminals = host;
      const res = await kit.call('run_in_terminal', { command: 'python3 app.py' });
      expect(res.text).toMatch(/^running in terminal index=0, an error was printed/);
      expect(res.text).toContain("ModuleNotFoundError: No module named 'flask'");
      expect(host.terminals[0].released).toBe(true);
      expect(host.closed).toEqual([]);
    });

    describe('with a web page on loopback', () => {
      let server: Server;
      let port: number;
      beforeAll(async () => {
        server = createServer((req, res) => {
          res.writeHead(200, { 'content-type': req.url?.startsWith('/api') ? 'application/json' : 'text/html; charset=utf-8' });
          res.end(req.method === 'HEAD' ? undefined : '<h1>hi</h1>');
        });
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
        port = (server.address() as AddressInfo).port;
      });
      afterAll(() => new Promise<void>((r) => server.close(() => r())));

      it('should name a started server\'s page URL once, emit the preview, and skip an API URL', async () => {
        kit.ctx.terminals = new ScriptedHost((t) => {
          t.print(`health at http://127.0.0.1:${port}/api/health\r\n`);
          t.print(`Serving HTTP on 0.0.0.0 port ${port} (http://0.0.0.0:${port}/) ...\r\n`);
          t.print(`again http://0.0.0.0:${port}/\r\n`);
        });
        const res = await kit.call('run_in_terminal', { command: `python3 -m http.server ${port}` });
        expect(res.text).toMatch(/^running in terminal index=0: server started/);
        expect(res.text).toContain(`Preview: http://0.0.0.0:${port}/`);
        expect(events).toEqual([{ type: 'preview.detected', data: { url: `http://0.0.0.0:${port}/`, terminalId: 't-0' } }]);
      });
    });

    it('should keep a long log aside and give the model at most 8 key lines', async () => {
      kit.ctx.terminals = new ScriptedHost((t) => {
        for (let i = 0; i < 400; i++) t.print(`line ${i} ${'-'.repeat(30)}\r\n`);
        t.print('npm ERR! missing script: start\r\n');
      });
      const res = await kit.call('run_in_terminal', { command: 'npm start' });
      expect(res.text).toMatch(/^\[cmd #1\] running in terminal index=0, an error was printed/);
      expect(res.text).toContain('npm ERR! missing script: start');
      expect(res.text).toContain('read_command_output cmd_id=1');
      const key = res.text.split('key lines:\n')[1].split('\n(full')[0].split('\n').filter((l) => l !== '…');
      expect(key.length).toBeLessThanOrEqual(8);
      expect((await kit.ctx.outputs.get(1))?.text).toContain('line 399');
    });

    it('should refuse where the workspace has no terminals', async () => {
      const res = await kit.call('run_in_terminal', { command: 'npm start' });
      expect(res).toMatchObject({ isError: true });
      expect(res.text).toContain('no terminals');
    });
  });

  describe('kill_terminal', () => {
    it('should kill one of the agent\'s terminals by index, then all the rest', async () => {
      const host = new ScriptedHost((t) => t.print('Listening on :3000\r\n'));
      kit.ctx.terminals = host;
      await kit.call('run_in_terminal', { command: 'node a.js' });
      await kit.call('run_in_terminal', { command: 'node b.js' });
      await kit.call('run_in_terminal', { command: 'node c.js' });
      expect((await kit.call('kill_terminal', { index: 1 })).text).toBe('Killed terminal 1: `node b.js`');
      const wrong = await kit.call('kill_terminal', { index: 5 });
      expect(wrong).toMatchObject({ isError: true });
      expect(wrong.text).toContain('0: `node a.js`, 1: `node c.js`');
      expect((await kit.call('kill_terminal')).text).toBe('Killed terminal 0: `node a.js`\nKilled terminal 1: `node c.js`');
      expect(host.closed).toEqual(['t-1', 't-0', 't-2']);
      expect((await kit.call('kill_terminal')).text).toBe('No terminal started by you is running.');
    });
  });
});
