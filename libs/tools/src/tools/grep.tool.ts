import { compileUserPattern, PatternError } from '@h/patterns';
import { isSecretPath } from '../secret-paths';
import { p, params } from '../tool-params';
import { ToolError, type AgentTool } from '../tool.types';
import { assertNotSecret } from './guards';

const MAX_MATCHES = 100;
const MAX_LINE_CHARS = 200;

const input = params({
  pattern: p.string('Regular expression (RE2, as in ripgrep: no backreferences or lookaround)'),
  path: p.optional(p.string('File or directory; default the root')),
  include: p.optional(p.string('File glob, e.g. "*.ts"')),
  ignore_case: p.optional(p.boolean()),
});

export const grepTool: AgentTool<typeof input.zod._output> = {
  name: 'grep',
  description: 'Search file contents for a regex (definitions, usages). Returns path:line: text.',
  category: 'read',
  parameters: input.json,
  input: input.zod,
  async execute({ pattern, path, include, ignore_case = false }, { workspace }) {
    if (path) assertNotSecret(path, workspace.root);
    // Checked here, on the engine every workspace uses (RE2 on the host, ripgrep's Rust regex in a
    // sandbox: the same syntax), so the model gets one clear message whatever the driver.
    try {
      compileUserPattern(pattern, { ignoreCase: ignore_case });
    } catch (e) {
      throw new ToolError(`invalid regex: ${e instanceof PatternError ? e.message : String(e)}`);
    }
    const { matches, truncated } = await workspace.grep(pattern, {
      path,
      glob: include,
      ignoreCase: ignore_case,
      maxResults: MAX_MATCHES * 2,
    });
    const shown = matches.filter((m) => !isSecretPath(m.path)).slice(0, MAX_MATCHES);
    const lines = shown.map((m) => {
      const text = m.text.trim();
      return `${m.path}:${m.line}: ${text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text}`;
    });
    const more = truncated || shown.length === MAX_MATCHES ? `\n(first ${shown.length} matches; narrow the search)` : '';
    return { text: lines.length ? lines.join('\n') + more : 'No matches', data: { count: shown.length } };
  },
};
