// git_status, git_log and git_diff of the seed's MCP tool set, over Source Control's own services
// (libs/scm: git in the workspace's sandbox with an argv, literal pathspecs, bounded output and
// time), written as agent tools so they go through the same registry, validation and error
// handling as the file and command tools.
import type { GitStatusInitialized } from '@h/contracts';
import { GitDiffService, ScmService } from '@h/scm';
import { p, params, ToolError, type AgentTool } from '@h/tools';

const LOG_DEFAULT = 20;
const LOG_MAX = 200;

const statusInput = params({});
const logInput = params({ limit: p.optional(p.integer(`Commits, newest first; default ${LOG_DEFAULT}, at most ${LOG_MAX}`, 1)) });
const diffInput = params({
  path: p.string('File path, relative to the workspace root'),
  staged: p.optional(p.boolean('true: HEAD → index (what a commit would take); default false: index → working tree')),
});

/** "/workspace/src/a.ts" and "src/a.ts" name the same file, as for the file tools. */
function relative(path: string, root: string): string {
  return path === root ? '' : path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

export function formatStatus(s: GitStatusInitialized): string {
  const lines = [`branch ${s.branch ?? '(detached)'}${s.head ? ` at ${s.head.slice(0, 12)}` : ' (no commits yet)'}`];
  if (s.upstream) lines.push(`upstream ${s.upstream}: ${s.ahead} ahead, ${s.behind} behind`);
  const group = (title: string, files: { path: string; kind?: string }[]) => {
    if (!files.length) return;
    lines.push(`${title}:`);
    for (const f of files) lines.push(`  ${f.kind ? `${f.kind}: ` : ''}${f.path}`);
  };
  group('staged', s.staged);
  group('unstaged', s.unstaged);
  group('untracked', s.untracked);
  group('conflicted', s.conflicted);
  if (!s.staged.length && !s.unstaged.length && !s.untracked.length) lines.push('working tree clean');
  if (s.truncated) lines.push('(list cut: too many files)');
  return lines.join('\n');
}

export function gitTools(scm: ScmService, diffs: GitDiffService, workspaceId: string): AgentTool[] {
  const gitStatus: AgentTool<typeof statusInput.zod._output> = {
    name: 'git_status',
    description: 'Staged, unstaged and untracked changes and the current branch of the workspace repository.',
    category: 'read',
    parameters: statusInput.json,
    input: statusInput.zod,
    async execute() {
      const s = await scm.status(workspaceId);
      if (!s.initialized) throw new ToolError('The workspace has no git repository at its root (git init makes one).');
      return { text: formatStatus(s), data: s };
    },
  };
  const gitLog: AgentTool<typeof logInput.zod._output> = {
    name: 'git_log',
    description: 'Recent commits of the current branch, newest first.',
    category: 'read',
    parameters: logInput.json,
    input: logInput.zod,
    async execute({ limit = LOG_DEFAULT }) {
      const log = await scm.log(workspaceId, Math.min(limit, LOG_MAX), 0);
      if (!log.commits.length) return { text: 'No commits yet.', data: log };
      const text = log.commits.map((c) => `${c.hash.slice(0, 12)} ${c.date} ${c.author} <${c.email}>  ${c.subject}`).join('\n');
      return { text: log.hasMore ? `${text}\n(more: call git_log with a larger limit)` : text, data: log };
    },
  };
  const gitDiff: AgentTool<typeof diffInput.zod._output> = {
    name: 'git_diff',
    description: 'The unified diff of one file: working tree against the index, or with staged=true the index against HEAD.',
    category: 'read',
    parameters: diffInput.json,
    input: diffInput.zod,
    async execute({ path, staged = false }, { workspace }) {
      const d = await diffs.diff(workspaceId, relative(path, workspace.root), staged);
      const text = d.patch || `No ${staged ? 'staged ' : ''}changes in ${d.path}.`;
      return { text: d.patchTruncated ? `${text}\n(patch cut at SCM_DIFF_MAX_BYTES)` : text, data: { path: d.path, staged, patchTruncated: d.patchTruncated } };
    },
  };
  return [gitStatus, gitLog, gitDiff];
}
