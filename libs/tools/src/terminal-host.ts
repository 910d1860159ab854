// What the agent's terminal tools (run_in_terminal, kill_terminal) need from a workspace: shared
// terminals in its sandbox that every IDE of the team shows live. The worker passes one per run
// (libs/sandbox SandboxTerminalHost); without one the tools refuse and say so.

/** A terminal the agent opened; its output and exit, as they happen. */
export interface RunningTerminal {
  readonly id: string;
  onData(listener: (data: string) => void): void;
  onExit(listener: (exitCode: number | null) => void): void;
  /** Stop listening here; the terminal keeps running (a server outlives the tool call). */
  release(): void;
}

export interface AgentTerminal {
  id: string;
  command: string;
  /** Epoch ms. */
  createdAt: number;
}

export interface TerminalHost {
  /** Runs `command` in a new terminal tab, labelled as the agent's and this session's. */
  run(command: string, options: { cwd?: string }): Promise<RunningTerminal>;
  /** The terminals this session's agent started that still run, oldest first. */
  own(): Promise<AgentTerminal[]>;
  close(id: string): Promise<void>;
}
