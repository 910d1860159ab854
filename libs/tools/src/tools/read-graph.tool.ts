// read_graph (the seed's "read_graph — Knowledge Graph Queries"): structural questions answered by
// the workspace's knowledge graph in its sandbox instead of by scanning files.
import { GRAPH_QUERIES } from '@h/contracts';
import { p, params } from '../tool-params';
import { ToolError, type AgentTool } from '../tool.types';

/** Characters of an answer the model gets at most (a large repository's `structure`). */
export const READ_GRAPH_MAX_CHARS = 40_000;

const input = params({
  query: p.enum(GRAPH_QUERIES),
  target: p.optional(p.string('File; symbol for exporters_of; dir for structure')),
});

export const readGraphTool: AgentTool<typeof input.zod._output> = {
  name: 'read_graph',
  description: "Codebase graph: a file's exports, imports, unused imports, dependents; a symbol's exporters; the tree.",
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ query, target }, ctx) {
    if (!ctx.graph) throw new ToolError('This workspace has no knowledge graph (its sandbox is not running).');
    let text: string;
    let status;
    try {
      ({ text, status } = await ctx.graph.query({ query, arg: target ?? '' }));
    } catch (e) {
      throw new ToolError(e instanceof Error ? e.message : String(e));
    }
    if (text.length > READ_GRAPH_MAX_CHARS) {
      const cut = text.lastIndexOf('\n', READ_GRAPH_MAX_CHARS);
      text = `${text.slice(0, cut > 0 ? cut : READ_GRAPH_MAX_CHARS)}\n… cut at ${READ_GRAPH_MAX_CHARS} characters; narrow the query (structure <directory>)`;
    }
    return { text, data: { query, target: target ?? null, status } };
  },
};
