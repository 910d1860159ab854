import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent, Workspace } from '@h/contracts';
import { rebuildConversation } from '../conversation';
import { createAgentKit, GOOD_SUMMARY, scenario, type AgentKit } from '../testing/agent-test-kit';
import { FILE_TREE_PATCH_MAX, listTree, renderTree, treeUpdate } from './file-tree';
import { directoryChain, readInstruction } from './instructions';
import { WorkspaceContextTracker } from './workspace-context';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });
const done = { toolCalls: [call('write_summary', { summary: GOOD_SUMMARY }), call('task_complete')] };
const persisted = (events: AgentEvent[]) => events.filter((e) => !e.type.endsWith('.delta'));
const contextEvents = (events: AgentEvent[]) =>
  events.filter((e) => e.type === 'prompt.guidance' && (e.data as { workspaceContext?: unknown }).workspaceContext).map((e) => e.data as { content: string });

describe('workspace context', () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit({ maxRetries: 1 })));
  afterEach(() => kit.close());

  it('should render the tree nested, directories first, and leave out .git and node_modules', async () => {
    kit.write({ 'b.txt': '', 'src/z.ts': '', 'src/lib/a.ts': '', 'node_modules/x/index.js': '', '.git/HEAD': '', 'README.md': '' });
    const listing = await listTree(kit.workspace);
    expect(listing.paths).toEqual(['README.md', 'b.txt', 'src/lib/a.ts', 'src/z.ts']);
    expect(renderTree(listing).split('\n').slice(1)).toEqual(['src/', '  lib/', '    a.ts', '  z.ts', 'README.md', 'b.txt']);
  });

  it('should send a patch for a few changes and the whole tree again past the patch limit', () => {
    const before = new Set(['a.ts', 'b.ts']);
    expect(treeUpdate(before, { paths: ['a.ts', 'b.ts'], total: 2, scanCapped: false })).toBeNull();
    const patch = treeUpdate(before, { paths: ['a.ts', 'c.ts'], total: 2, scanCapped: false });
    expect(patch).toMatchObject({ mode: 'patch', added: ['c.ts'], deleted: ['b.ts'] });
    expect(patch?.text.split('\n').slice(1)).toEqual(['+ c.ts', '- b.ts']);
    const many = Array.from({ length: FILE_TREE_PATCH_MAX + 1 }, (_, i) => `n${i}.ts`);
    expect(treeUpdate(before, { paths: many, total: many.length, scanCapped: false })?.mode).toBe('full');
    expect(treeUpdate(null, { paths: ['a.ts'], total: 1, scanCapped: false })?.mode).toBe('full');
  });

  it('should cut an instruction file to the budget on a character boundary and say how to read the rest', async () => {
    kit.write({ 'AGENTS.md': `${'é'.repeat(10)}tail` });
    const file = await readInstruction(kit.workspace, 'AGENTS.md', 5);
    expect(file).toMatchObject({ truncated: true, bytes: 24, text: 'éé' });
    expect(directoryChain('/workspace/src/api/x.ts')).toEqual(['', 'src', 'src/api']);
  });

  it('should open a session with the instructions and the tree after the user message, then tell only what changed', async () => {
    kit.write({ 'AGENTS.md': 'Always run npm test.\n', 'src/math.js': 'module.exports = {};\n', 'src/api/CLAUDE.md': 'API code uses tabs.\n' });
    const headers = { 'x-conversation-id': 'ctx-session' };
    kit.server.load(
      scenario('context', [
        // The first run reads into src/api: its CLAUDE.md is told in the next request.
        { toolCalls: [call('read_file', { path: 'src/api/handler.js' })] },
        done,
        // The second run.
        { text: 'Noted.' },
      ]),
    );
    const first = await kit.run(null, { requestHeaders: headers, workspaceContext: {} });
    expect(first.status).toBe('done');
    const [opening, found] = contextEvents(kit.events);
    expect(opening.content).toContain('[Workspace instructions]');
    expect(opening.content).toContain('## AGENTS.md\nAlways run npm test.');
    expect(opening.content).not.toContain('API code uses tabs');
    expect(opening.content).toContain('[Workspace file tree] 3 files');
    expect(found.content).toContain('## src/api/CLAUDE.md\nAPI code uses tabs.');
    // The first request carries the opening context in the user's message, after its text.
    const firstUser = kit.server.requests[0].body.messages[1];
    expect(firstUser.content.startsWith('There is a failing test in this project. Fix it.\n\n[Workspace instructions]')).toBe(true);

    // Between runs: a file added, one removed, the root instructions edited.
    kit.write({ 'src/new.js': '', 'AGENTS.md': 'Always run npm test and lint.\n' });
    rmSync(join(kit.dir, 'src/math.js'));
    const log = persisted(kit.events);
    const before = kit.events.length;
    const second = await kit.run(null, { requestHeaders: headers, workspaceContext: {}, conversation: rebuildConversation(log), userMessage: 'Thanks' });
    expect(second.status).toBe('done');
    const [next] = contextEvents(kit.events.slice(before));
    expect(next.content).toContain('## AGENTS.md (updated)\nAlways run npm test and lint.');
    expect(next.content).not.toContain('API code uses tabs');
    expect(next.content).toContain('[Workspace file tree: changes since you last saw it]\n+ src/new.js\n- src/math.js');
    expect(next.content).not.toContain('[Workspace file tree] ');
    // Prefix stability: the second run's request repeats the first run's last request, message for message.
    const requests = kit.server.requests.map((r) => r.body.messages.map((m: unknown) => JSON.stringify(m)));
    const lastOfFirst = requests[1];
    expect(requests[2].slice(0, lastOfFirst.length)).toEqual(lastOfFirst);
  });

  it('should tell nothing at the start of a run when nothing changed, and the rebuild yields the same conversation', async () => {
    kit.write({ 'AGENTS.md': 'Be brief.\n', 'a.txt': 'x' });
    kit.server.load(scenario('quiet', [{ text: 'One.' }, { text: 'Two.' }]));
    await kit.run(null, { workspaceContext: {} });
    const log = persisted(kit.events);
    const before = kit.events.length;
    const second = await kit.run(null, { workspaceContext: {}, conversation: rebuildConversation(log), userMessage: 'Again' });
    expect(contextEvents(kit.events.slice(before))).toEqual([]);
    expect(rebuildConversation(persisted(kit.events)).messages).toEqual(second.conversation.messages);
  });

  it('should send the instructions again after a compaction dropped them', async () => {
    kit.write({ 'AGENTS.md': 'Be brief.\n', 'a.txt': 'a'.repeat(3000) });
    const reads = Array.from({ length: 5 }, () => ({ toolCalls: [call('read_file', { path: 'a.txt' })] }));
    kit.server.load(scenario('compacted', [...reads, done, { text: 'Fine.' }]));
    await kit.run(null, { workspaceContext: {}, compaction: { triggerTokens: 2_500, triggerMessages: 24 } });
    expect(kit.events.some((e) => e.type === 'compaction')).toBe(true);
    const before = kit.events.length;
    await kit.run(null, { workspaceContext: {}, conversation: rebuildConversation(persisted(kit.events)), userMessage: 'More' });
    const [again] = contextEvents(kit.events.slice(before));
    expect(again.content).toContain('## AGENTS.md\nBe brief.');
  });

  it('should leave a run without context when it is not asked for', async () => {
    writeFileSync(join(kit.dir, 'AGENTS.md'), 'x');
    kit.server.load(scenario('none', [{ text: 'Hi.' }]));
    await kit.run(null);
    expect(contextEvents(kit.events)).toEqual([]);
  });
});

describe(WorkspaceContextTracker.name, () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit({ maxRetries: 1 })));
  afterEach(() => kit.close());

  // The workspace with its directory listings (not the opening's recursive walk) counted.
  function counted(): { workspace: Workspace; dirLists: string[] } {
    const dirLists: string[] = [];
    const workspace = new Proxy(kit.workspace, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'list' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return (path: string, options?: { recursive?: boolean }) => {
          if (!options?.recursive) dirLists.push(path);
          return value.call(target, path, options);
        };
      },
    });
    return { workspace, dirLists };
  }
  const none = () => ({ instructions: new Map<string, string>(), tree: null });

  it('should find a reached directory\'s instructions from the opening walk without listing it', async () => {
    kit.write({ 'src/api/CLAUDE.md': 'API code uses tabs.\n', 'src/api/handler.js': '\n', 'lib/x.js': '\n' });
    const { workspace, dirLists } = counted();
    const tracker = new WorkspaceContextTracker(workspace, {}, none);
    await tracker.opening();
    const found = await tracker.afterCalls([{ id: 'c1', name: 'read_file', arguments: JSON.stringify({ path: 'src/api/handler.js' }) }]);
    expect(found?.content).toContain('API code uses tabs.');
    expect(await tracker.afterCalls([{ id: 'c2', name: 'read_file', arguments: JSON.stringify({ path: 'lib/x.js' }) }])).toBeNull();
    expect(dirLists).toEqual([]);
  });

  it('should list a directory again once a command ran, so an instruction file it created is found', async () => {
    kit.write({ 'src/a.js': '\n', 'lib/x.js': '\n' });
    const { workspace, dirLists } = counted();
    const tracker = new WorkspaceContextTracker(workspace, {}, none);
    await tracker.opening();
    kit.write({ 'lib/AGENTS.md': 'Made by a command.\n' });
    await tracker.afterCalls([{ id: 'c1', name: 'run_command', arguments: JSON.stringify({ command: 'make' }) }]);
    const found = await tracker.afterCalls([{ id: 'c2', name: 'read_file', arguments: JSON.stringify({ path: 'lib/x.js' }) }]);
    expect(found?.content).toContain('Made by a command.');
    expect(dirLists).toContain('lib');
  });

  it('should use the listing the host started instead of walking the workspace again', async () => {
    kit.write({ 'a.js': '\n' });
    const walks: string[] = [];
    const workspace = new Proxy(kit.workspace, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key === 'list') return (path: string, options?: { recursive?: boolean }) => (walks.push(path), value.call(target, path, options));
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const listing = listTree(kit.workspace);
    const opening = await new WorkspaceContextTracker(workspace, { listing }, none).opening();
    expect(opening?.content).toContain('a.js');
    expect(walks).toEqual([]);
  });
});
