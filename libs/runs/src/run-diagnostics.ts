import type { SandboxClient } from '@h/sandbox';
import { lspProblems, type ProblemReport } from '@h/tools';

/** Work-tree changes looked at per read_problems at most (a checkout of thousands is not "touched"). */
const GIT_STATUS_MAX_PATHS = 2000;
const GIT_STATUS_MAX_BYTES = 256 * 1024;

/** `git status --porcelain -z` paths (renames: the new name), or [] outside a repository. */
export function parsePorcelainZ(out: string): string[] {
  const parts = out.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < parts.length && paths.length < GIT_STATUS_MAX_PATHS; i++) {
    const entry = parts[i];
    if (entry.length < 4) continue;
    const status = entry.slice(0, 2);
    paths.push(entry.slice(3));
    if (status.includes('R') || status.includes('C')) i++; // the old name follows
  }
  return paths.filter((p) => !p.endsWith('/'));
}

/**
 * ToolContext.diagnostics for one run segment: the language servers in the workspace's sandbox
 * asked about the files this run's write tools changed plus the work tree's uncommitted changes
 * (edits made in a terminal or by an earlier segment). Null when none of them has a language
 * server, or the sandbox cannot answer (an image without them): read_problems falls back to the
 * build check.
 */
export function runDiagnostics(connect: () => Promise<SandboxClient>, written: ReadonlySet<string>): () => Promise<ProblemReport | null> {
  return async () => {
    try {
      const client = await connect();
      const touched = async () => {
        const status = await client
          .call('exec.run', { argv: ['git', 'status', '--porcelain=v1', '-z', '--untracked-files=all'], timeoutMs: 10_000, maxOutputBytes: GIT_STATUS_MAX_BYTES })
          .catch(() => null);
        const fromGit = status && status.exitCode === 0 ? parsePorcelainZ(status.stdout) : [];
        return [...written, ...fromGit];
      };
      return await lspProblems({ call: (params) => client.call('lsp.diagnostics', params), touched });
    } catch {
      return null;
    }
  };
}
