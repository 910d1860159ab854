import type { PermissionMode } from '@h/contracts';

type Category = 'read' | 'write' | 'delete' | 'command';

// Claude Code's built-in tools by what they do, as H's permission policy and event log classify
// calls (the log's barrier before side effects, the IDE's icons). Unknown tools (MCP, new ones)
// count as commands: the safe side.
const CATEGORIES: Record<string, Category> = {
  Read: 'read', Glob: 'read', Grep: 'read', LS: 'read', NotebookRead: 'read', TodoWrite: 'read', WebSearch: 'read', WebFetch: 'read',
  ToolSearch: 'read', ListAgents: 'read', AskUserQuestion: 'read', EnterPlanMode: 'read', ExitPlanMode: 'read',
  Write: 'write', Edit: 'write', MultiEdit: 'write', NotebookEdit: 'write',
  Bash: 'command', BashOutput: 'command', KillShell: 'command', Task: 'command', Monitor: 'command',
};

export function toolCategory(name: string): Category {
  return CATEGORIES[name] ?? 'command';
}

/** Where the claude binary is in the sandbox image (infra/sandbox/agents.env). */
export const CLAUDE_BIN = '/usr/local/bin/claude';

// Run inside the sandbox: a loopback forwarder to the run's gateway socket (the sandbox has no
// network interface but loopback), then Claude Code pointed at it. socat is in the image; the
// forwarder dies with the process group when the run ends or is cancelled.
const LAUNCH_SCRIPT = [
  'sock="$1"; port="$2"; shift 2',
  'socat TCP-LISTEN:"$port",bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$sock" 2>/dev/null & fwd=$!',
  '"$@"; rc=$?',
  'kill "$fwd" 2>/dev/null',
  'exit "$rc"',
].join('\n');

export interface ClaudeLaunch {
  argv: string[];
  env: Record<string, string>;
}

/**
 * The command and environment of one Claude Code turn in the sandbox. The environment holds the
 * run's gateway secret as ANTHROPIC_API_KEY (never the team's key) and turns off everything that
 * would try the network besides the model (telemetry, auto-update, error reports).
 */
export function claudeLaunch(input: {
  sandboxSocketPath: string;
  port: number;
  secret: string;
  model: string;
  permissionMode: PermissionMode;
  resumeSessionId?: string | null;
}): ClaudeLaunch {
  const args = [
    '-p',
    '--output-format', 'stream-json',
    '--input-format', 'stream-json',
    '--verbose',
    '--include-partial-messages',
    '--model', input.model,
    // h2c's modes: skip = Claude Code never asks; approve and bypass = it asks H over stdio and
    // H's policy answers (bypass: always allow, without a person).
    ...(input.permissionMode === 'skip' ? ['--dangerously-skip-permissions'] : ['--permission-prompt-tool', 'stdio']),
    ...(input.resumeSessionId ? ['--resume', input.resumeSessionId] : []),
  ];
  return {
    argv: ['/bin/sh', '-c', LAUNCH_SCRIPT, 'claude-launch', input.sandboxSocketPath, String(input.port), CLAUDE_BIN, ...args],
    env: {
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${input.port}`,
      ANTHROPIC_API_KEY: input.secret,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    },
  };
}

/** A loopback port for the run's forwarder, spread by run id so concurrent runs rarely meet. */
export function forwarderPort(runId: string): number {
  let h = 0;
  for (const ch of runId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return 20_000 + (h % 40_000);
}
