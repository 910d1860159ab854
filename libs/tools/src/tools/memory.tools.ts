// remember / recall / forget (seed: "Persistent Memory", Tools): the model stores decisions,
// preferences, conventions and facts that outlive the session. The store is a port (ToolContext
// memory); a run without one says so instead of pretending. They touch no workspace file, so they
// are `read` for the permission layer (no approval, no checkpoint), like write_todos.
import { MEMORY_CATEGORIES, MEMORY_LIMITS, MEMORY_SCOPES } from '@h/contracts';
import type { MemoryPort, RecalledMemory } from '../memory-port';
import { p, params } from '../tool-params';
import { ToolError, type AgentTool, type ToolContext } from '../tool.types';

const RECALL_MAX = 30;

function store(ctx: ToolContext): MemoryPort {
  if (!ctx.memory) throw new ToolError('Memory is not available in this run.');
  return ctx.memory;
}

const rememberInput = params({
  key: p.string('Short name, e.g. indent-style'),
  value: p.string(),
  category: p.optional(p.enum(MEMORY_CATEGORIES)),
  tags: p.optional(p.array(p.string())),
  scope: p.optional(p.enum(MEMORY_SCOPES, 'user: the person, in every workspace; project: this workspace')),
});

export const rememberTool: AgentTool<typeof rememberInput.zod._output> = {
  name: 'remember',
  description: 'Store a decision, user preference, project convention or fact for future sessions. Same key (any spelling) updates it.',
  category: 'read',
  parameters: rememberInput.json,
  input: rememberInput.zod,
  async execute({ key, value, category, tags, scope }, ctx) {
    if (!key.trim() || !value.trim()) throw new ToolError('key and value must not be empty');
    if (key.length > MEMORY_LIMITS.keyChars) throw new ToolError(`key is longer than ${MEMORY_LIMITS.keyChars} characters`);
    if (value.length > MEMORY_LIMITS.contentChars) throw new ToolError(`value is longer than ${MEMORY_LIMITS.contentChars} characters; store the gist`);
    const r = await store(ctx).remember({ key, value: value.trim(), category, tags: (tags ?? []).slice(0, MEMORY_LIMITS.tags), scope });
    const was = r.previous !== undefined ? ` (was: ${r.previous.slice(0, 200)})` : '';
    return { text: `Memory ${r.outcome}: ${r.key} [${r.scope}]${was}`, data: r };
  },
};

const recallInput = params({
  query: p.optional(p.string('Keywords')),
  key: p.optional(p.string()),
});

function line(m: RecalledMemory): string {
  const tags = m.tags.length ? ` #${m.tags.join(' #')}` : '';
  return `- ${m.key} [${m.scope}, ${m.category}]${tags}: ${m.content}`;
}

export const recallTool: AgentTool<typeof recallInput.zod._output> = {
  name: 'recall',
  description: 'Search stored memories by keywords or exact key; no arguments lists them all.',
  category: 'read',
  parameters: recallInput.json,
  input: recallInput.zod,
  async execute({ query, key }, ctx) {
    const found = await store(ctx).recall({ query: query?.trim() || undefined, key: key?.trim() || undefined });
    if (!found.length) return { text: 'No memories match.', data: { count: 0 } };
    const shown = found.slice(0, RECALL_MAX);
    const more = found.length > shown.length ? `\n(${found.length - shown.length} more; narrow the query)` : '';
    return { text: shown.map(line).join('\n') + more, data: { count: found.length } };
  },
};

const forgetInput = params({
  key: p.string(),
  scope: p.optional(p.enum(MEMORY_SCOPES)),
});

export const forgetTool: AgentTool<typeof forgetInput.zod._output> = {
  name: 'forget',
  description: 'Remove a stored memory by key when it is reversed or outdated.',
  category: 'read',
  parameters: forgetInput.json,
  input: forgetInput.zod,
  async execute({ key, scope }, ctx) {
    const n = await store(ctx).forget(key, scope);
    return n ? { text: `Forgot ${key}.`, data: { forgotten: n } } : { text: `No memory named ${key}.`, isError: true };
  },
};

/** The main agent's memory tools, in a fixed order (after the delegate tools: cached prefix). */
export const MEMORY_TOOLS: readonly AgentTool[] = [rememberTool, recallTool, forgetTool];
