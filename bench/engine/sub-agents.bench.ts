// Benchmark: what the model sees with sub-agents (issue 12). Through the real engine, the real
// DeepSeekProvider and the scripted server over loopback HTTP:
// 1. the main agent's first request with the tools the worker gives it (core tools without any
//    browser tool, plus delegate_task and delegate_parallel), against the core tools alone;
// 2. three delegations of one profile (code-search) in a row, each a sub-agent of its own with its
//    profile's system prompt, tools and prefix cache (seed 2b: the last two task/report pairs),
//    and the share of each delegation's first request a provider's prefix cache could serve from
//    the requests before it (longest common prefix with any earlier request, in whole 64-token
//    units, as DeepSeek stores them); once with the prefix cache, once without, for comparison.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parentToolRegistry, profilePrompt, profileToolRegistry, rebuildConversation, runAgent, withPrefixPair, type PrefixPair } from '@h/agent';
import { DeepSeekProvider } from '@h/llm';
import { CACHE_UNIT_TOKENS, CHARS_PER_TOKEN, CONVERSATION_HEADER, commonPrefixLength, renderPrompt, startScriptedModelServer, type ScriptedModelServer } from '@h/scripted-model';
import { LocalWorkspace } from '@h/tools';

// The main agent's first request was 2,037 tokens before the delegate tools (fix-failing-test);
// the prefix cache's delegations must stay servable from the cache for most of their first request.
// 2,500 until issue 14: the seed's five session-query schemas and its fixed prior-history guidance
// are on every main-agent request (seed dsh), +393 tokens; the core tools' 4,000 target stands.
// 2,800 until the rest of issue 14: remember / recall / forget (+268) and read_graph (+104) are on
// every main-agent request too (each description already one line).
const TARGETS = { parentFirstRequestTokens: 3_200, reusableShareFromSecond: 0.85 };
const tokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const TASKS = [
  'Find where the HTTP routes of this project are registered. Report file paths and line numbers.',
  'Find every place that reads environment variables. Report file paths and line numbers.',
  'Find the error-handling middleware and how errors are turned into responses. Report file paths.',
];
const REPORTS = [
  'Routes are registered in src/server.js:3-9 (app.get for /health and /users) and src/routes/users.js:1-20.',
  'Environment variables are read in src/config.js:1-6 (PORT, DATABASE_URL) and nowhere else.',
  'Errors are handled in src/errors.js:1-12: a middleware that maps thrown errors to JSON bodies.',
];

async function firstRequest(server: ScriptedModelServer, url: string, dir: string, withDelegation: boolean, n: number): Promise<string> {
  const before = server.requests.length;
  await runAgent({
    provider: new DeepSeekProvider({ apiKey: 'bench', baseUrl: url }),
    model: 'scripted:parent-first',
    workspace: new LocalWorkspace(dir),
    ...(withDelegation ? { tools: parentToolRegistry() } : {}),
    userMessage: 'There is a failing test in this project. Fix it.',
    requestHeaders: { [CONVERSATION_HEADER]: `parent-${n}` },
    onEvent: () => undefined,
  });
  return renderPrompt(server.requests[before].body ?? {});
}

/** Three code-search delegations in a row; the first request of each, rendered. */
async function delegations(server: ScriptedModelServer, url: string, dir: string, usePrefix: boolean, tag: string): Promise<string[]> {
  let pairs: PrefixPair[] = [];
  const firsts: string[] = [];
  for (let i = 0; i < TASKS.length; i++) {
    const before = server.requests.length;
    const conversation = rebuildConversation([
      { type: 'message.user', data: { content: TASKS[i], ...(usePrefix && pairs.length ? { prefix: pairs.map(({ task, summary }) => ({ task, summary })) } : {}) } },
    ]);
    const result = await runAgent({
      provider: new DeepSeekProvider({ apiKey: 'bench', baseUrl: url }),
      model: 'scripted:delegations',
      workspace: new LocalWorkspace(dir),
      tools: profileToolRegistry('code-search'),
      profilePrompt: profilePrompt('code-search'),
      conversation,
      requestHeaders: { [CONVERSATION_HEADER]: `${tag}-${i}` },
      onEvent: () => undefined,
    });
    if (result.status !== 'done') throw new Error(`delegation ${i + 1} ended ${result.status}: ${result.error?.message}`);
    firsts.push(renderPrompt(server.requests[before].body ?? {}));
    pairs = withPrefixPair(pairs, { runId: `${tag}-${i}`, task: TASKS[i], summary: result.reply ?? '' });
  }
  return firsts;
}

/** Share of `prompt` a prefix cache holding every earlier request could serve (whole 64-token units). */
function reusable(prompt: string, earlier: string[]): number {
  const chars = Math.max(0, ...earlier.map((e) => commonPrefixLength(e, prompt)));
  const unit = CACHE_UNIT_TOKENS * CHARS_PER_TOKEN;
  return (Math.floor(chars / unit) * unit) / prompt.length;
}

async function main(): Promise<void> {
  const server = await startScriptedModelServer({ demo: false });
  server.load({ name: 'parent-first', turns: [{ text: 'Nothing to do.' }] }, { makeDefault: false });
  server.load(
    {
      name: 'delegations',
      turns: [{ text: 'unused' }],
      agents: TASKS.map((task, i) => ({
        name: `search-${i + 1}`,
        match: { systemContains: "H's Code Search Agent", taskContains: task },
        turns: [{ toolCalls: [{ name: 'grep', arguments: { pattern: 'app' } }] }, { text: REPORTS[i] }],
      })),
    },
    { makeDefault: false },
  );
  const dir = mkdtempSync(join(tmpdir(), 'h-bench-sub-'));
  writeFileSync(join(dir, 'server.js'), "const app = require('express')();\napp.get('/health', (q, r) => r.send('ok'));\n");
  try {
    const core = tokens(await firstRequest(server, server.url, dir, false, 1));
    const parent = tokens(await firstRequest(server, server.url, dir, true, 2));
    const withPrefix = await delegations(server, server.url, dir, true, 'with');
    const withoutPrefix = await delegations(server, server.url, dir, false, 'without');
    if (server.failures.length) throw new Error(`scripted server failures:\n${server.failures.join('\n')}`);
    // Each variant against its own earlier requests only (its own provider cache).
    const all = (tag: string) => server.requests.filter((r) => r.conversation?.startsWith(`header:${tag}-`)).map((r) => renderPrompt(r.body ?? {}));
    const shares = (firsts: string[], tag: string) => firsts.map((p) => reusable(p, all(tag).filter((q) => q !== p && all(tag).indexOf(q) < all(tag).indexOf(p))));

    const sharesWith = shares(withPrefix, 'with');
    const sharesWithout = shares(withoutPrefix, 'without');
    console.log('sub-agents: what the model sees (scripted DeepSeek over loopback HTTP)');
    console.log(`main agent's first request (chars/4): ${parent} tokens with delegate_task + delegate_parallel + the session-query tools (core tools alone: ${core}; +${parent - core})   (target <= ${TARGETS.parentFirstRequestTokens})`);
    console.log(`code-search delegations, first request of each: ${withPrefix.map(tokens).join(', ')} tokens with the prefix cache; ${withoutPrefix.map(tokens).join(', ')} without`);
    console.log(`cache-reusable share of the 2nd and 3rd delegation's first request: ${sharesWith.slice(1).map(pct).join(', ')} with the prefix cache   (target >= ${pct(TARGETS.reusableShareFromSecond)})`);
    console.log(`  without it: ${sharesWithout.slice(1).map(pct).join(', ')}; the prefix cache also keeps the earlier reports in front of the sub-agent`);
    const misses = [
      parent > TARGETS.parentFirstRequestTokens && 'main agent first request too large',
      sharesWith.slice(1).some((s) => s < TARGETS.reusableShareFromSecond) && 'a later delegation reuses too little of the cache',
    ].filter(Boolean);
    console.log(misses.length ? `TARGETS MISSED: ${misses.join('; ')}` : 'all targets met');
    process.exitCode = misses.length ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
