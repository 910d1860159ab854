import { GIT_STATUS_MAX_FILES, type GitChangeKind, type GitFileChange, type GitStatusInitialized } from '@h/contracts';

// `git status --porcelain=v2 --branch -z` (git-status(1), "Porcelain Format Version 2"): NUL-ended
// records; headers `# branch.*`, ordinary `1`, renamed/copied `2` (followed by one more record, the
// original path), unmerged `u`, untracked `?`, ignored `!`.

const KIND: Record<string, GitChangeKind> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type-changed' };

/**
 * The status answer from git's output. `truncated`: the output was cut at its cap, so the last
 * record may be partial; it is dropped rather than shown wrong.
 */
export function parseGitStatus(out: string, truncated: boolean, maxFiles = GIT_STATUS_MAX_FILES): GitStatusInitialized {
  const status: GitStatusInitialized = {
    initialized: true,
    branch: null,
    head: null,
    upstream: null,
    ahead: 0,
    behind: 0,
    staged: [],
    unstaged: [],
    untracked: [],
    conflicted: [],
    truncated,
  };
  const records = out.split('\0');
  // The piece after the last NUL is either '' (complete output) or a cut record.
  records.pop();
  let files = 0;
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    // A tree with a huge untracked directory (no .gitignore for node_modules) must not become a
    // response and a list nobody can use: the headers always come first, the files stop here.
    if (!rec.startsWith('# ') && ++files > maxFiles) {
      status.truncated = true;
      break;
    }
    if (rec.startsWith('# ')) {
      header(status, rec.slice(2));
    } else if (rec.startsWith('1 ')) {
      // 1 XY sub mH mI mW hH hI path — the path may contain spaces, so split only 8 times.
      const f = fields(rec, 9);
      changed(status, f[1], f[8]);
    } else if (rec.startsWith('2 ')) {
      // 2 XY sub mH mI mW hH hI Xscore path, then the original path as its own record.
      const f = fields(rec, 10);
      const originalPath = records[++i];
      if (originalPath === undefined) break;
      changed(status, f[1], f[9], originalPath);
    } else if (rec.startsWith('u ')) {
      // u XY sub m1 m2 m3 mW h1 h2 h3 path
      const f = fields(rec, 11);
      status.conflicted.push({ path: f[10], kind: 'conflicted' });
    } else if (rec.startsWith('? ')) {
      status.untracked.push({ path: rec.slice(2), kind: 'untracked' });
    }
  }
  return status;
}

function header(status: GitStatusInitialized, h: string): void {
  const space = h.indexOf(' ');
  const key = h.slice(0, space);
  const value = h.slice(space + 1);
  if (key === 'branch.oid') status.head = value === '(initial)' ? null : value;
  else if (key === 'branch.head') status.branch = value === '(detached)' ? null : value;
  else if (key === 'branch.upstream') status.upstream = value;
  else if (key === 'branch.ab') {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (m) {
      status.ahead = Number(m[1]);
      status.behind = Number(m[2]);
    }
  }
}

function changed(status: GitStatusInitialized, xy: string, path: string, originalPath?: string): void {
  const [x, y] = xy;
  const staged = KIND[x];
  const unstaged = KIND[y];
  if (staged) status.staged.push(entry(path, staged, originalPath));
  // The working tree side is against the index, where the file already has its new name.
  if (unstaged) status.unstaged.push(entry(path, unstaged));
}

function entry(path: string, kind: GitChangeKind, originalPath?: string): GitFileChange {
  return originalPath !== undefined && (kind === 'renamed' || kind === 'copied') ? { path, kind, originalPath } : { path, kind };
}

/** The first n-1 space-separated fields, and the rest (a path, spaces and all) as the nth. */
function fields(rec: string, n: number): string[] {
  const out: string[] = [];
  let at = 0;
  for (let k = 0; k < n - 1; k++) {
    const next = rec.indexOf(' ', at);
    if (next < 0) break;
    out.push(rec.slice(at, next));
    at = next + 1;
  }
  out.push(rec.slice(at));
  return out;
}
