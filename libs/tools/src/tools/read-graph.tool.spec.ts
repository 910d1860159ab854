import type { GraphQueryParams, GraphQueryResult } from '@h/sandbox-protocol';
import type { GraphHost } from '../graph-host';
import type { ToolContext } from '../tool.types';
import { READ_GRAPH_MAX_CHARS, readGraphTool } from './read-graph.tool';

const status: GraphQueryResult['status'] = { state: 'ready', files: 3, symbols: 5, updating: false, builtAt: '2026-12-03T00:00:00.000Z', lastBuildMs: 12, error: null };

/** A sandbox graph that answers with the text given, recording what it was asked. */
function host(answer: (p: GraphQueryParams) => string): GraphHost & { asked: GraphQueryParams[] } {
  const asked: GraphQueryParams[] = [];
  return {
    asked,
    query: async (p) => {
      asked.push(p);
      return { text: answer(p), status };
    },
  };
}
const ctx = (graph?: GraphHost) => ({ graph }) as unknown as ToolContext;

describe('read_graph', () => {
  it('asks the sandbox graph the query and target, and returns its answer', async () => {
    const graph = host((p) => `${p.arg} exports:\nfoo:function`);
    const res = await readGraphTool.execute(readGraphTool.input.parse({ query: 'exports', target: 'src/a.ts' }), ctx(graph));
    expect(graph.asked).toEqual([{ query: 'exports', arg: 'src/a.ts' }]);
    expect(res.text).toBe('src/a.ts exports:\nfoo:function');
  });

  it('refuses a query outside the six', () => {
    expect(() => readGraphTool.input.parse({ query: 'callers' })).toThrow();
  });

  it('says so when the workspace has no sandbox graph', async () => {
    await expect(readGraphTool.execute({ query: 'structure', target: undefined }, ctx())).rejects.toThrow(/no knowledge graph/);
  });

  it('cuts a long answer at a line and says how to narrow it', async () => {
    const line = 'repo/src/some/long/path/file.ts';
    const graph = host(() => Array.from({ length: 5000 }, () => line).join('\n'));
    const res = await readGraphTool.execute({ query: 'structure', target: undefined }, ctx(graph));
    expect(res.text.length).toBeLessThan(READ_GRAPH_MAX_CHARS + 200);
    expect(res.text.split('\n').at(-2)).toBe(line);
    expect(res.text).toMatch(/narrow the query \(structure <directory>\)$/);
  });
});
