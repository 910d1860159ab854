import type { ExecResult } from '@h/contracts';
import { longRunningReason } from '../command-policy';
import { distillOutput } from '../distill';
import { p, params } from '../tool-params';
import { offers, ToolError, type AgentTool, type ToolContext, type ToolResult } from '../tool.types';

const DEFAULT_TIMEOUT_S = 120;
const MAX_TIMEOUT_S = 600;
// Non-interactive, colourless runs: test runners leave watch mode off and print plain text.
const COMMAND_ENV = { CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', TERM: 'dumb' };

const input = params({
  command: p.string(),
  cwd: p.optional(p.string('Working directory; default the root')),
  timeout: p.optional(p.integer('Seconds; default 120', 1)),
});

export function combinedOutput(res: ExecResult): string {
  return [res.stdout, res.stderr].filter((s) => s.length > 0).join(res.stdout.endsWith('\n') ? '' : '\n');
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}

export function exitLabel(res: ExecResult, timeoutS: number): string {
  if (res.cancelled) return 'cancelled';
  if (res.timedOut) return `timed out after ${timeoutS}s (killed)`;
  if (res.exitCode === null) return `killed by ${res.signal ?? 'signal'}`;
  return `exit ${res.exitCode}`;
}

/** Runs a command and returns its distilled output, keeping the full text under `[cmd #N]`. */
export async function runAndDistill(command: string, ctx: ToolContext, cwd?: string, timeoutS = DEFAULT_TIMEOUT_S): Promise<
  ToolResult & { exec: ExecResult; fullText: string }
> {
  const res = await ctx.workspace.exec(command, {
    cwd,
    env: COMMAND_ENV,
    timeoutMs: timeoutS * 1000,
    // Captured up to what the output store keeps (TOOL_OUTPUT_MAX_BYTES): the model sees the
    // distilled lines, read_command_output the rest.
    maxOutputBytes: ctx.outputs.maxBytes,
    signal: ctx.signal,
  });
  const output = combinedOutput(res);
  const status = `${exitLabel(res, timeoutS)} (${(res.durationMs / 1000).toFixed(1)}s)${res.truncated ? `, output capped at ${formatBytes(ctx.outputs.maxBytes)}` : ''}`;
  const distilled = distillOutput(output);
  const data = { exitCode: res.exitCode, timedOut: res.timedOut, cancelled: res.cancelled, durationMs: res.durationMs };
  if (!distilled.distilled) {
    return { text: output ? `${status}\n${distilled.text}` : `${status}, no output`, data, exec: res, fullText: output };
  }
  const stored = await ctx.outputs.add({ label: command, text: output, truncated: res.truncated, callId: ctx.callId });
  const id = stored.id;
  return {
    text: `[cmd #${id}] ${status}, ${distilled.totalLines} lines; key lines:\n${distilled.text}${offers(ctx, 'read_command_output') ? `\n(full: read_command_output cmd_id=${id})` : ''}`,
    data: { ...data, cmdId: id },
    output: stored,
    exec: res,
    fullText: output,
  };
}

export const runCommandTool: AgentTool<typeof input.zod._output> = {
  name: 'run_command',
  description:
    'Run a shell command that finishes (tests, builds, lint, git, installs). Output is distilled to key lines; full output via read_command_output. Servers and watchers: run_in_terminal.',
  category: 'command',
  parameters: input.json,
  input: input.zod,
  async execute({ command, cwd, timeout = DEFAULT_TIMEOUT_S }, ctx) {
    const reason = longRunningReason(command);
    if (reason) {
      const instead = offers(ctx, 'run_in_terminal')
        ? 'start servers, watchers and interactive programs with run_in_terminal'
        : 'this agent has no terminal tool, so tell the user the command to run in their own terminal';
      const foreground = reason.startsWith('puts a process in the background') ? ' Run it in the foreground if it finishes on its own;' : '';
      throw new ToolError(`Refused: \`${command}\` ${reason}. run_command only runs commands that finish.${foreground} ${instead}.`);
    }
    const { exec: _exec, fullText: _fullText, ...result } = await runAndDistill(command, ctx, cwd, Math.min(timeout, MAX_TIMEOUT_S));
    return result;
  },
};
