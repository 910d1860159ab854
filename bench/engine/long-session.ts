// The long-session part of the engine benchmark: one run of many steps (read a file, sometimes
// run a command) on a model with a 128k-token window, so the conversation passes the window's
// compaction threshold several times. It measures what compaction costs the prefix cache: the
// cache-reusable share of all prompt tokens, and how many requests rewrote the previous
// request's prefix (at most one per compaction).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { compactionFor, runAgent, type CompactionSettings } from '@h/agent';
import { DeepSeekProvider, getModelInfo } from '@h/llm';
import { CONVERSATION_HEADER, commonPrefixLength, renderPrompt, type Scenario, type ScriptedModelServer } from '@h/scripted-model';
import { LocalWorkspace } from '@h/tools';

export const LONG_SESSION_MODEL = 'deepseek-chat';
const STEPS = Number(process.env.BENCH_LONG_STEPS ?? 90);
const FILES = 30;
const FILE_LINES = 160;

const SUMMARY =
  '### Changes Made\n- No files changed\n### Verification\n- read every module and ran `node -e 1`: exit 0\n### Outcome\n- reviewed all modules of src/';

export interface LongSessionFigures {
  status: string;
  requests: number;
  compactions: number;
  /** Requests that repeat less than 95 % of the previous request as their prefix. */
  rewrites: number;
  promptTokens: number;
  cacheHitTokens: number;
  /** Σ cache hits / Σ prompt tokens, as the scripted server counts them (64-token units). */
  reusableShare: number;
  triggerTokens: number;
  maxPromptTokens: number;
}

function fixture(): Record<string, string> {
  const files: Record<string, string> = { 'package.json': '{"name":"long","version":"1.0.0"}\n' };
  for (let f = 0; f < FILES; f++) {
    const lines = Array.from({ length: FILE_LINES }, (_, i) => `export const item${f}_${i} = { id: ${i}, label: 'module ${f} item ${i}' };`);
    files[`src/module-${f}.ts`] = `${lines.join('\n')}\n`;
  }
  return files;
}

function longScenario(): Scenario {
  const turns: Scenario['turns'] = [];
  for (let i = 0; i < STEPS; i++) {
    const call =
      i % 10 === 9
        ? { name: 'run_command', arguments: { command: `node -e "console.log('check ${i}')"` } }
        : { name: 'read_file', arguments: { path: `src/module-${i % FILES}.ts` } };
    turns.push({ thinking: `Step ${i}: keep reviewing.`, toolCalls: [call] });
  }
  turns.push({ toolCalls: [{ name: 'write_summary', arguments: { summary: SUMMARY } }, { name: 'task_complete', arguments: {} }] });
  return { name: 'long-session', turns };
}

/** @param compaction fixed thresholds instead of the window's (the comparison run). */
let sessions = 0;

export async function runLongSession(server: ScriptedModelServer, compaction?: Partial<CompactionSettings>): Promise<LongSessionFigures> {
  server.load(longScenario());
  const dir = mkdtempSync(join(tmpdir(), 'h-bench-long-'));
  const before = server.requests.length;
  let compactions = 0;
  try {
    for (const [path, content] of Object.entries(fixture())) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const result = await runAgent({
      provider: new DeepSeekProvider({ apiKey: 'bench', baseUrl: server.url }),
      model: LONG_SESSION_MODEL,
      workspace: new LocalWorkspace(dir),
      userMessage: 'Review every module under src/ and report what you find.',
      requestHeaders: { [CONVERSATION_HEADER]: `bench-long-${++sessions}` },
      maxSteps: STEPS + 5,
      compaction,
      // What the worker sends too: the fixture's file tree (and AGENTS.md / CLAUDE.md when it has them).
      workspaceContext: {},
      onEvent: (e) => {
        if (e.type === 'compaction') compactions++;
      },
    });
    const requests = server.requests.slice(before);
    const prompts = requests.map((r) => renderPrompt(r.body ?? {}));
    const rewrites = prompts.slice(1).filter((p, i) => commonPrefixLength(prompts[i], p) / prompts[i].length < 0.95).length;
    const promptTokens = requests.reduce((n, r) => n + r.promptTokens, 0);
    const cacheHitTokens = requests.reduce((n, r) => n + r.cacheHitTokens, 0);
    return {
      status: result.status,
      requests: requests.length,
      compactions,
      rewrites,
      promptTokens,
      cacheHitTokens,
      reusableShare: promptTokens ? cacheHitTokens / promptTokens : 0,
      triggerTokens: compactionFor(getModelInfo(LONG_SESSION_MODEL).contextWindow, compaction).triggerTokens,
      maxPromptTokens: Math.max(...requests.map((r) => r.promptTokens)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
