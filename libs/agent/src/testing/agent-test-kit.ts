// Shared by this lib's specs and the engine benchmark: a real temp workspace, the project's
// scripted OpenAI-compatible server over loopback HTTP, and DeepSeekProvider talking to it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentEvent } from '@h/contracts';
import { DeepSeekProvider } from '@h/llm';
import { CONVERSATION_HEADER, startScriptedModelServer, type Scenario, type ScriptedModelServer } from '@h/scripted-model';
import { LocalWorkspace, MemoryOutputStore } from '@h/tools';
import { runAgent } from '../agent-run';
import type { AgentRunOptions, AgentRunResult } from '../agent-run.types';

export interface AgentKit {
  dir: string;
  workspace: LocalWorkspace;
  server: ScriptedModelServer;
  provider: DeepSeekProvider;
  events: AgentEvent[];
  write(files: Record<string, string>): void;
  run(scenario: Scenario | null, options?: Partial<AgentRunOptions>): Promise<AgentRunResult>;
  close(): Promise<void>;
}

let conversationCounter = 0;

export async function createAgentKit(providerOptions: { maxRetries?: number; timeoutMs?: number } = {}): Promise<AgentKit> {
  const dir = mkdtempSync(join(tmpdir(), 'h-agent-'));
  const server = await startScriptedModelServer({ demo: false });
  const provider = new DeepSeekProvider({
    apiKey: 'test-key',
    baseUrl: server.url,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    random: () => 0,
    ...providerOptions,
  });
  const workspace = new LocalWorkspace(dir);
  const events: AgentEvent[] = [];
  // One store for the kit, as a session has one: outputs stay readable across its runs.
  const outputs = new MemoryOutputStore();
  const write = (files: Record<string, string>) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  };
  return {
    dir,
    workspace,
    server,
    provider,
    events,
    write,
    async run(scenario, options = {}) {
      if (scenario) {
        server.load(scenario);
        if (scenario.fixture) write(scenario.fixture);
      }
      return runAgent({
        provider,
        model: 'deepseek-v4-flash',
        thinking: true,
        workspace,
        outputs,
        userMessage: 'There is a failing test in this project. Fix it.',
        requestHeaders: { [CONVERSATION_HEADER]: `c${++conversationCounter}` },
        onEvent: (e) => {
          events.push(e);
        },
        ...options,
      });
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A scenario object for the scripted server (turns answered in order). */
export function scenario(name: string, turns: Scenario['turns'], fixture?: Record<string, string>): Scenario {
  return { name, turns, ...(fixture ? { fixture } : {}) };
}

export const GOOD_SUMMARY =
  '### Changes Made\n- src/math.js: add() returns a + b\n### Verification\n- npm test: all tests passed\n### Outcome\n- the failing test passes';

/** Event types without the ephemeral deltas, for readable assertions. */
export function eventTypes(events: AgentEvent[]): string[] {
  return events.filter((e) => !e.type.endsWith('.delta')).map((e) => e.type);
}
