import type { SandboxTerminal } from './sandbox-client';
import type { SandboxClientProvider } from './sandbox-workspace';
import { toWorkspaceError } from './sandbox-client';

/** Who the agent's terminals belong to: labels every IDE shows, and the scope of kill_terminal. */
export interface AgentTerminalOwner {
  sessionId: string;
  /** The session's user (shown as the opener). */
  userId: string;
  /** TERMINALS_PER_WORKSPACE_MAX: the agent's terminals count against the workspace's limit. */
  maxTerminals: number;
}

/**
 * The agent's terminals (run_in_terminal, kill_terminal) in the workspace's sandbox, the same
 * PTYs the IDE shows (libs/terminals): kept alive when the worker's connection goes, labelled
 * `agent` with the session, so the tools find exactly this session's terminals again after a
 * pause or a worker restart. Implements the tools' TerminalHost (libs/tools terminal-host.ts).
 */
export class SandboxTerminalHost {
  constructor(
    private readonly clients: SandboxClientProvider,
    private readonly owner: AgentTerminalOwner,
  ) {}

  async run(command: string, options: { cwd?: string }) {
    const client = await this.clients();
    // Output before the tool listens is kept; so is an exit (a command that fails at once).
    const backlog: string[] = [];
    let onData: ((d: string) => void) | null = null;
    const exitListeners: Array<(code: number | null) => void> = [];
    let exited: { code: number | null } | null = null;
    let terminal: SandboxTerminal;
    try {
      terminal = await client.openTerminal(
        {
          command: '/bin/bash',
          args: ['-c', command],
          cwd: options.cwd,
          cols: 120,
          rows: 30,
          keepAlive: true,
          maxCount: this.owner.maxTerminals,
          meta: { title: command.slice(0, 80), command, agent: true, sessionId: this.owner.sessionId, openedBy: this.owner.userId },
        },
        (t) => {
          t.on('data', (d) => (onData ? onData(d) : backlog.push(d)));
          t.on('exit', ({ exitCode, lost }) => {
            exited = { code: lost ? null : exitCode };
            for (const l of exitListeners.splice(0)) l(exited.code);
          });
        },
      );
    } catch (err) {
      throw toWorkspaceError(err);
    }
    return {
      id: terminal.id,
      onData(listener: (d: string) => void) {
        for (const d of backlog.splice(0)) listener(d);
        onData = listener;
      },
      onExit(listener: (code: number | null) => void) {
        if (exited) listener(exited.code);
        else exitListeners.push(listener);
      },
      release() {
        onData = null;
        exitListeners.length = 0;
        // The program keeps running; this connection stops taking its output.
        if (!terminal.exited) void terminal.detach().catch(() => undefined);
      },
    };
  }

  async own() {
    const client = await this.clients();
    const list = await client.call('pty.list', {});
    return list
      .filter((p) => p.meta?.agent === true && p.meta.sessionId === this.owner.sessionId)
      .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0))
      .map((p) => ({ id: p.ptyId, command: p.meta?.command ?? '', createdAt: p.createdAt ?? 0 }));
  }

  async close(id: string): Promise<void> {
    const client = await this.clients();
    await client.call('pty.close', { ptyId: id }).catch((err) => {
      // Gone already is what the caller wanted.
      if ((err as { data?: { code?: string } })?.data?.code !== 'NO_SUCH_PTY') throw toWorkspaceError(err);
    });
  }
}
