import { countErrors, detectBuildCheck } from '../build-check';
import { params } from '../tool-params';
import type { AgentTool, ProblemReport } from '../tool.types';
import { plural } from './guards';
import { runAndDistill } from './run-command.tool';

const CHECK_TIMEOUT_S = 300;
const input = params({});

export const readProblemsTool: AgentTool<typeof input.zod._output> = {
  name: 'read_problems',
  description: 'Read current errors and warnings (language servers, else the project build/lint check).',
  // The fallback runs the project's own build command, so a permission layer must treat it as one.
  category: 'command',
  parameters: input.json,
  input: input.zod,
  async execute(_input, ctx) {
    const lsp = ctx.diagnostics ? await ctx.diagnostics() : null;
    if (lsp) {
      ctx.state.problems = lsp;
      return { text: lsp.text, data: lsp };
    }
    const check = await detectBuildCheck(ctx.workspace);
    if (!check) {
      const report: ProblemReport = { errorCount: 0, warningCount: 0, source: 'none', text: 'No build or lint check detected; 0 errors' };
      ctx.state.problems = report;
      return { text: report.text, data: report };
    }
    const run = await runAndDistill(check.command, ctx, undefined, CHECK_TIMEOUT_S);
    const { errors, warnings } = countErrors(run.fullText, run.exec.exitCode);
    const head = `${plural(errors, 'error')}, ${plural(warnings, 'warning')} from \`${check.command}\``;
    const report: ProblemReport = { errorCount: errors, warningCount: warnings, source: check.command, text: `${head}\n${run.text}` };
    ctx.state.problems = report;
    return { text: report.text, data: { ...report, cmdId: run.output?.id }, output: run.output };
  },
};
