// What git prints, turned into what a person reads: progress lines for the workspace's status
// message, and failures that say what to do. Everything shown passes through scrub() first.

const PHASES: Record<string, string> = {
  'counting objects': 'counting objects on the server',
  'compressing objects': 'compressing on the server',
  'enumerating objects': 'counting objects on the server',
  'receiving objects': 'receiving objects',
  'resolving deltas': 'resolving deltas',
  'updating files': 'checking out files',
};

/** "Receiving objects:  45% (450/1000), 1.2 MiB | 2 MiB/s" → "Cloning… 45% (receiving objects)"; null for other lines. */
export function progressMessage(line: string, verb = 'Cloning'): string | null {
  const m = /^(?:remote:\s*)?([A-Za-z ]+?):\s+(\d{1,3})%/.exec(line.trim());
  if (!m) return null;
  const phase = PHASES[m[1].toLowerCase()];
  return phase ? `${verb}… ${m[2]}% (${phase})` : null;
}

/** Splits git's stderr (progress rewrites its line with \r) into lines. */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let rest = '';
  return (chunk) => {
    rest += chunk.toString();
    const parts = rest.split(/[\r\n]/);
    rest = parts.pop() ?? '';
    for (const p of parts) if (p.trim()) onLine(p);
  };
}

/** Removes credentials from text git or ssh printed: user info in URLs, auth headers. */
export function scrub(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1')
    .replace(/(authorization:\s*)(basic|bearer)\s+\S+/gi, '$1$2 ***')
    .replace(/-----BEGIN[^-]*PRIVATE KEY-----[\s\S]*?-----END[^-]*PRIVATE KEY-----/g, '[private key]');
}

export type GitFailureKind = 'auth' | 'host' | 'branch' | 'repository' | 'timeout' | 'other';

export interface GitFailure {
  kind: GitFailureKind;
  /** For the person: what happened and what to do. */
  message: string;
}

/** What a failed clone, fetch or push means, from git's stderr. */
export function describeGitFailure(stderr: string, context: { host: string; branch?: string | null; ssh: boolean; timedOut?: boolean; timeoutSeconds?: number }): GitFailure {
  const s = stderr.toLowerCase();
  const what = context.ssh ? 'deploy key' : 'token';
  if (context.timedOut) {
    return { kind: 'timeout', message: `The git remote at ${context.host} took longer than ${context.timeoutSeconds ?? '?'} s (GIT_REMOTE_TIMEOUT_SECONDS); try again, or ask an admin to raise the limit.` };
  }
  if (/could not resolve host|name or service not known|temporary failure in name resolution|could not resolve hostname/.test(s)) {
    return { kind: 'host', message: `The git host ${context.host} was not found; check the URL.` };
  }
  if (/connection refused|connection timed out|network is unreachable|failed to connect|no route to host/.test(s)) {
    return { kind: 'host', message: `The git host ${context.host} could not be reached; check the URL and that the server is up.` };
  }
  if (/authentication failed|could not read username|could not read password|http basic: access denied|permission denied \(publickey|returned error: 40[13]|invalid username or password|terminal prompts disabled/.test(s)) {
    return { kind: 'auth', message: `${context.host} refused the credentials: check the ${what} (and that it may read this repository).` };
  }
  if (/host key verification failed/.test(s)) {
    return { kind: 'auth', message: `The ssh host key of ${context.host} changed since H first connected; if that is expected, set the remote again.` };
  }
  if (context.branch && /remote branch .* not found|couldn't find remote ref/.test(s)) {
    return { kind: 'branch', message: `The branch "${context.branch}" was not found on the remote; check its name, or leave it empty for the default branch.` };
  }
  if (/repository .* not found|not found|does not appear to be a git repository|returned error: 404/.test(s)) {
    return { kind: 'repository', message: `No git repository at that URL on ${context.host} (or the ${what} may not see it); check the URL.` };
  }
  const last = scrub(stderr).split('\n').map((l) => l.trim()).filter((l) => l && !progressMessage(l)).slice(-2).join(' ');
  return { kind: 'other', message: `git failed${last ? `: ${last.slice(0, 300)}` : ''}.` };
}
