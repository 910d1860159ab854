import { isSecretPath } from '../secret-paths';
import { p, params } from '../tool-params';
import type { AgentTool } from '../tool.types';

const MAX_RESULTS = 200;

const input = params({
  pattern: p.string('Name substring or glob, e.g. "*.test.ts"'),
  path: p.optional(p.string('Directory to search; default the root')),
});

export const searchFilesTool: AgentTool<typeof input.zod._output> = {
  name: 'search_files',
  description: 'Recursively find files and folders by name (case-insensitive).',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ pattern, path }, { workspace }) {
    const found = await workspace.findFiles(pattern, { path, maxResults: MAX_RESULTS * 2 });
    const shown = found.filter((f) => !isSecretPath(f)).slice(0, MAX_RESULTS);
    const more = shown.length === MAX_RESULTS ? `\n(first ${MAX_RESULTS} matches)` : '';
    return {
      text: shown.length ? shown.join('\n') + more : `No files match "${pattern}"`,
      data: { count: shown.length },
    };
  },
};
