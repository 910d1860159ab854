import { capUtf8 } from '../output.store';
import { detectLoopbackUrls, errorLine, keyLines, serverStartedLine, servesHtml } from '../terminal-watch';
import { p, params } from '../tool-params';
import { offers, ToolError, type AgentTool } from '../tool.types';

// Seed lifecycle: run in a terminal tab everyone sees, then wait for the process to exit, a
// server-started line, an error line (plus a short flush so the traceback is whole) or 120 s.
// The model gets the key lines (8 lines / 1,200 characters); the full output goes to the store.
export const TERMINAL_WAIT_MS = 120_000;
const FLUSH_AFTER_SIGNAL_MS = 500;
/** Pattern checks look at each new chunk with this much of what came before (a line split over chunks). */
const CARRY_CHARS = 1000;

const input = params({
  command: p.string(),
  cwd: p.optional(p.string('Working directory; default the root')),
});

type Outcome = { kind: 'exited'; exitCode: number | null } | { kind: 'server' | 'error'; line: string } | { kind: 'timeout' } | { kind: 'cancelled' };

export const runInTerminalTool: AgentTool<typeof input.zod._output> = {
  name: 'run_in_terminal',
  description:
    'Run a server, watcher or interactive program in a terminal tab the team sees. Waits for exit, a started or error line, or 120s; returns key lines (full: read_command_output). Stop it with kill_terminal.',
  category: 'command',
  parameters: input.json,
  input: input.zod,
  async execute({ command, cwd }, ctx) {
    if (!ctx.terminals) throw new ToolError('This workspace has no terminals; use run_command for commands that finish.');
    const started = Date.now();
    const terminal = await ctx.terminals.run(command, { cwd });
    let output = '';
    let capped = false;
    const checked = new Set<string>();
    const previews: string[] = [];
    const checks: Promise<void>[] = [];

    const outcome = await new Promise<Outcome>((resolve) => {
      let settled: Outcome | null = null;
      const finish = (o: Outcome, delayMs = 0) => {
        if (settled) return;
        settled = o;
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
        setTimeout(() => resolve(o), delayMs);
      };
      const timer = setTimeout(() => finish({ kind: 'timeout' }), TERMINAL_WAIT_MS);
      const onAbort = () => finish({ kind: 'cancelled' });
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      terminal.onExit((exitCode) => finish({ kind: 'exited', exitCode }));
      terminal.onData((data) => {
        const window = output.slice(-CARRY_CHARS) + data;
        if (!capped) {
          const kept = capUtf8(output + data, ctx.outputs.maxBytes);
          output = kept.text;
          capped = kept.truncated;
        }
        // Each URL once per terminal (seed), checked while the call waits.
        for (const url of detectLoopbackUrls(window)) {
          if (checked.has(url)) continue;
          checked.add(url);
          checks.push(
            servesHtml(url, {
              exec: async (command, timeoutMs) => (await ctx.workspace.exec(command, { timeoutMs, signal: ctx.signal }).catch(() => null))?.stdout ?? null,
              aborted: () => ctx.signal.aborted,
            }).then(async (html) => {
              if (!html) return;
              previews.push(url);
              await ctx.emit?.({ type: 'preview.detected', data: { url, terminalId: terminal.id, ...(ctx.callId ? { toolCallId: ctx.callId } : {}) } });
            }),
          );
        }
        const failed = errorLine(window);
        if (failed) return finish({ kind: 'error', line: failed }, FLUSH_AFTER_SIGNAL_MS);
        const up = serverStartedLine(window);
        if (up) finish({ kind: 'server', line: up }, FLUSH_AFTER_SIGNAL_MS);
      });
    });
    await Promise.all(checks);
    terminal.release();

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const own = await ctx.terminals.own().catch(() => []);
    const index = own.findIndex((t) => t.id === terminal.id);
    const where = index >= 0 ? `terminal index=${index}` : 'its terminal';
    const status = {
      exited: () => `exited with code ${(outcome as { exitCode: number | null }).exitCode ?? 'unknown'} after ${seconds}s`,
      server: () => `running in ${where}: server started (${seconds}s)`,
      error: () => `running in ${where}, an error was printed (${seconds}s)`,
      timeout: () => `still running in ${where} after ${TERMINAL_WAIT_MS / 1000}s`,
      cancelled: () => `cancelled; still running in ${where}`,
    }[outcome.kind]();
    const key = keyLines(output);
    const preview = previews.length ? `\nPreview: ${previews.join(', ')}` : '';
    const data = { terminalId: terminal.id, state: outcome.kind, exitCode: outcome.kind === 'exited' ? outcome.exitCode : null, previews };
    if (!key.distilled) {
      return { text: `${status}${output.trim() ? `\n${key.text}` : ', no output'}${preview}`, data };
    }
    const stored = await ctx.outputs.add({ label: command, text: output, truncated: capped, callId: ctx.callId });
    const more = offers(ctx, 'read_command_output') ? `\n(full: read_command_output cmd_id=${stored.id})` : '';
    return {
      text: `[cmd #${stored.id}] ${status}, ${key.totalLines} lines; key lines:\n${key.text}${preview}${more}`,
      data: { ...data, cmdId: stored.id },
      output: stored,
    };
  },
};
