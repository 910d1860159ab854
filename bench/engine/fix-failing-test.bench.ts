// Benchmark: the scripted "fix a failing test" trajectory (read source and test, run the test,
// edit, rerun, write_summary + task_complete batched) through the real engine, the real
// DeepSeekProvider and the project's scripted OpenAI-compatible server over loopback HTTP.
// Prints request count, prompt sizes (chars/4, tool definitions included), the share of each
// request that the previous request's bytes cover as an unchanged prefix, and the engine's own
// time per step (wall time minus model, tool and event-sink time).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runAgent, type StepTiming } from '@h/agent';
import { DeepSeekProvider } from '@h/llm';
import {
  CONVERSATION_HEADER,
  builtinScenarioDir,
  commonPrefixLength,
  loadScenarioFile,
  renderPrompt,
  startScriptedModelServer,
} from '@h/scripted-model';
import { LocalWorkspace } from '@h/tools';
import { LONG_SESSION_MODEL, runLongSession } from './long-session';

const TARGETS = { firstRequestTokens: 4_000, totalPromptTokens: 20_000, minPrefixShare: 0.95, engineMsPerStep: 2 };
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 3;

interface RunFigures {
  status: string;
  prompts: string[];
  timings: StepTiming[];
  fixed: boolean;
}

async function runOnce(url: string, n: number): Promise<RunFigures> {
  const scenario = loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json'));
  const dir = mkdtempSync(join(tmpdir(), 'h-bench-ws-'));
  try {
    for (const [path, content] of Object.entries(scenario.fixture ?? {})) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const provider = new DeepSeekProvider({ apiKey: 'bench', baseUrl: url });
    const timings: StepTiming[] = [];
    const result = await runAgent({
      provider,
      model: 'deepseek-v4-flash',
      thinking: true,
      workspace: new LocalWorkspace(dir),
      userMessage: 'There is a failing test in this project. Fix it.',
      requestHeaders: { [CONVERSATION_HEADER]: `bench-${n}` },
      onEvent: () => undefined,
      onStepTiming: (t) => timings.push(t),
      // What the worker sends too: the fixture's file tree (and AGENTS.md / CLAUDE.md when it has them).
      workspaceContext: {},
    });
    return {
      status: result.status,
      prompts: [],
      timings,
      fixed: readFileSync(join(dir, 'src/math.js'), 'utf8').includes('return a + b'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const tokens = (text: string) => Math.ceil(text.length / 4);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main(): Promise<void> {
  const server = await startScriptedModelServer({ demo: false });
  server.load(loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json')));
  try {
    const runs: RunFigures[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const before = server.requests.length;
      const figures = await runOnce(server.url, i);
      figures.prompts = server.requests.slice(before).map((r) => renderPrompt(r.body ?? {}));
      if (i >= WARMUP) runs.push(figures);
    }
    if (server.failures.length) throw new Error(`scripted server failures:\n${server.failures.join('\n')}`);
    const first = runs[0];
    if (runs.some((r) => r.status !== 'done' || !r.fixed)) throw new Error('a run did not finish with the test fixed');

    const promptTokens = first.prompts.map(tokens);
    const total = promptTokens.reduce((a, b) => a + b, 0);
    const shares = first.prompts.slice(1).map((p, i) => commonPrefixLength(first.prompts[i], p) / first.prompts[i].length);
    const engine = runs.flatMap((r) => r.timings.map((t) => t.engineMs));
    const engineMedian = median(engine);

    console.log('fix-failing-test through the H engine (scripted DeepSeek over loopback HTTP)');
    console.log(`model requests per run:        ${first.prompts.length}`);
    console.log(`first request (chars/4):       ${promptTokens[0]} tokens   (target <= ${TARGETS.firstRequestTokens})`);
    console.log(`prompt tokens per request:     ${promptTokens.join(', ')}`);
    console.log(`total prompt tokens:           ${total}   (target <= ${TARGETS.totalPromptTokens})`);
    console.log(`previous request repeated as prefix, per request after the first: ${shares.map(pct).join(', ')}   (target >= ${pct(TARGETS.minPrefixShare)})`);
    console.log(`engine time per step (median of ${engine.length} steps over ${runs.length} runs): ${engineMedian.toFixed(3)} ms   (target <= ${TARGETS.engineMsPerStep} ms)`);
    console.log(`engine time per step p90: ${[...engine].sort((a, b) => a - b)[Math.floor(engine.length * 0.9)].toFixed(3)} ms; max ${Math.max(...engine).toFixed(3)} ms`);

    const long = await runLongSession(server);
    if (server.failures.length) throw new Error(`scripted server failures:\n${server.failures.join('\n')}`);
    console.log('');
    console.log(`long session (${LONG_SESSION_MODEL}, compaction at ${long.triggerTokens.toLocaleString('en-US')} tokens): ${long.requests} requests, ${long.status}`);
    console.log(`compactions:                   ${long.compactions}; requests that rewrote the previous prefix: ${long.rewrites}   (target <= compactions)`);
    console.log(`largest prompt:                ${long.maxPromptTokens} tokens; all prompts: ${long.promptTokens} tokens`);
    console.log(`cache-reusable share of all prompt tokens: ${pct(long.reusableShare)} (${long.cacheHitTokens} of ${long.promptTokens})`);
    const seed = await runLongSession(server, { triggerTokens: 10_000, triggerMessages: 24 });
    console.log(`  for comparison, the seed's fixed 10,000-token trigger: ${seed.compactions} compactions, ${pct(seed.reusableShare)} reusable`);

    const misses = [
      long.status !== 'done' && 'the long session did not finish',
      long.compactions === 0 && 'the long session never compacted',
      long.rewrites > long.compactions && 'the long session lost the prefix cache more often than it compacted',
      promptTokens[0] > TARGETS.firstRequestTokens && 'first request too large',
      total > TARGETS.totalPromptTokens && 'total prompt tokens too high',
      shares.some((s) => s < TARGETS.minPrefixShare) && 'a request rewrote its prefix',
      engineMedian > TARGETS.engineMsPerStep && 'engine time per step too high',
    ].filter(Boolean);
    console.log(misses.length ? `TARGETS MISSED: ${misses.join('; ')}` : 'all targets met');
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
