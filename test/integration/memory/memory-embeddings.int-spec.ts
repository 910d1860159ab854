import { bagOfWordsEmbedding, parseScenario, startScriptedModelServer } from '@h/scripted-model';
import { startStack, TestStack } from '../../support/api-harness';
import { sql } from '../api/team-fixture';
import { createRunWorld, RunWorld, ScriptedServer, waitForRunStatus } from '../../support/run-fixtures';

// Issue 14, point 1: ranking by meaning when the provider offers embeddings. The message shares no
// word with the memory it needs, and that memory is the oldest of eight: keywords and full-text
// rank would tell the six newest. With MEMORY_EMBEDDINGS_MODEL the run asks the provider's
// POST /embeddings (the scripted server's stands in: its vectors put "width of a tab" next to the
// indentation rule) and the rule is told. Vectors are stored, and the next run sends only its message.
const RELATED = [/indent/i, /tab\b/i];
const ALONG = Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0));
function embed(text: string): number[] {
  return RELATED.some((r) => r.test(text)) ? ALONG : bagOfWordsEmbedding(`unrelated ${text}`).map((x, i) => (i === 0 ? 0 : x));
}

describe('memory ranked by embeddings (scripted provider)', () => {
  let model: ScriptedServer;
  let stack: TestStack;
  let world: RunWorld;
  const reply = (name: string, match: string) => parseScenario({ name, match: { firstUserMessageContains: match }, turns: [{ text: 'Noted.' }] });

  beforeAll(async () => {
    model = await startScriptedModelServer({ scenarios: [reply('width', 'How wide should a tab be'), reply('again', 'And the width of a tab')], demo: false, embed });
    stack = await startStack({ worker: true, env: { DEEPSEEK_BASE_URL: model.url, MEMORY_EMBEDDINGS_MODEL: 'scripted-embed' } });
    world = await createRunWorld(stack, 'memoryembed');
  });

  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  async function ask(content: string): Promise<string> {
    const session = await world.client.post(`/api/v1/workspaces/${world.workspaceId}/sessions`, { permissionMode: 'skip' });
    const posted = await world.client.post(`/api/v1/sessions/${session.body.id}/messages`, { content });
    expect((await waitForRunStatus(world.client, posted.body.id, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
    const chat = model.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1);
    return JSON.stringify((chat?.body as { messages: unknown[] }).messages);
  }

  it('should tell the memory closest in meaning, embedding each memory once', async () => {
    const memories = `/api/v1/workspaces/${world.workspaceId}/memories`;
    // Oldest first: the indentation rule, then seven others.
    expect((await world.client.post(memories, { scope: 'project', key: 'indent-style', content: 'Indent with two spaces per level, never hard tabs' })).status).toBe(201);
    for (let i = 0; i < 7; i++) {
      expect((await world.client.post(memories, { scope: 'project', key: `deploy-note-${i}`, content: `Release ${i} goes out on Fridays from the main branch` })).status).toBe(201);
    }

    const told = await ask('How wide should a tab be?');
    expect(told).toContain('[What H remembers');
    expect(told).toContain('indent-style: Indent with two spaces per level');
    const embedCalls = model.requests.filter((r) => r.path.endsWith('/embeddings'));
    expect(embedCalls).toHaveLength(1);
    expect((embedCalls[0].body as { model: string; input: string[] })).toMatchObject({ model: 'scripted-embed' });
    expect((embedCalls[0].body as { input: string[] }).input).toHaveLength(9); // the message and the eight memories
    const stored = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "Memory" WHERE "workspaceId" = $1 AND "embeddingModel" = 'scripted-embed' AND cardinality(embedding) = 64`, [world.workspaceId]);
    expect(stored[0].n).toBe(8);

    // A second run embeds only its message; an edited memory is embedded again.
    expect((await world.client.post(memories, { scope: 'project', key: 'indent-style', content: 'Indent with four spaces per level, never hard tabs' })).status).toBeLessThan(300);
    const again = await ask('And the width of a tab in this repo?');
    expect(again).toContain('indent-style: Indent with four spaces per level');
    const second = model.requests.filter((r) => r.path.endsWith('/embeddings')).at(-1);
    expect((second?.body as { input: string[] }).input).toEqual(['And the width of a tab in this repo?', 'indent-style: Indent with four spaces per level, never hard tabs']);
  });
});
