import { AGENT_PROFILE_NAMES, AGENT_PROFILES, BROWSER_TOOLS, FULL_FILESYSTEM_TOOLS } from '@h/contracts';
import { BROWSER_AGENT_TOOLS, CORE_TOOLS } from '@h/tools';
import { parentToolRegistry, profilePrompt, profileToolRegistry, withPrefixPair } from './profiles';

const names = (r: ReturnType<typeof parentToolRegistry>) => r.definitions().map((d) => d.name);
const HAVE = new Set([...CORE_TOOLS, ...BROWSER_AGENT_TOOLS].map((t) => t.name));

describe('sub-agent profiles', () => {
  it('should offer each profile exactly its allowlist of the tools H has', () => {
    for (const profile of AGENT_PROFILE_NAMES) {
      expect(names(profileToolRegistry(profile)).sort()).toEqual(AGENT_PROFILES[profile].tools.filter((t) => HAVE.has(t)).sort());
    }
    expect(names(profileToolRegistry('code-search'))).toEqual(['read_file', 'list_files', 'search_files', 'grep', 'read_graph']);
    expect(AGENT_PROFILES['code-writer'].tools).toEqual([...FULL_FILESYSTEM_TOOLS, 'run_command', 'read_problems', 'read_graph']);
  });

  it('should offer the browser profile all the browser tools in their table order, and frontend-specialist only the three that read', () => {
    expect(names(profileToolRegistry('browser'))).toEqual([...BROWSER_TOOLS]);
    const frontend = names(profileToolRegistry('frontend-specialist')).filter((t) => t.startsWith('browser_'));
    expect(frontend).toEqual(['browser_screenshot', 'browser_console', 'browser_request_errors']);
  });

  it('should never let a read-only profile write', () => {
    const writers = new Set(['write_file', 'edit_file', 'create_directory', 'rename_file', 'delete_file']);
    for (const profile of AGENT_PROFILE_NAMES.filter((p) => AGENT_PROFILES[p].readOnly)) {
      expect(names(profileToolRegistry(profile)).filter((t) => writers.has(t))).toEqual([]);
    }
  });

  it('should give the parent the delegate, memory and session-query tools last and no browser tool, and never let a sub-agent delegate or remember', () => {
    const parent = names(parentToolRegistry());
    expect(parent.slice(-10)).toEqual([
      'delegate_task', 'delegate_parallel', 'remember', 'recall', 'forget',
      'session_search', 'session_event_search', 'session_trace', 'session_event_trace', 'session_event_read',
    ]);
    expect(parent.filter((t) => (BROWSER_TOOLS as readonly string[]).includes(t))).toEqual([]);
    // The same bytes on every build (prefix stability).
    expect(JSON.stringify(parentToolRegistry().definitions())).toBe(JSON.stringify(parentToolRegistry().definitions()));
    for (const profile of AGENT_PROFILE_NAMES) expect(names(profileToolRegistry(profile))).not.toContain('delegate_task');
    for (const profile of AGENT_PROFILE_NAMES) expect(names(profileToolRegistry(profile))).not.toContain('remember');
    expect(profilePrompt('code-search')).toContain("H's Code Search Agent");
  });

  it('should keep the last two task/report pairs of a profile, bounded, once per run', () => {
    let pairs = withPrefixPair([], { runId: 'r1', task: 't'.repeat(600), summary: 's'.repeat(1200) });
    expect(pairs[0].task.length).toBeLessThanOrEqual(500);
    expect(pairs[0].summary.length).toBeLessThanOrEqual(1000);
    expect(pairs[0].summary).toContain('more characters cut');
    pairs = withPrefixPair(pairs, { runId: 'r2', task: 't2', summary: 's2' });
    pairs = withPrefixPair(pairs, { runId: 'r2', task: 't2', summary: 's2' });
    pairs = withPrefixPair(pairs, { runId: 'r3', task: 't3', summary: 's3' });
    expect(pairs.map((p) => p.runId)).toEqual(['r2', 'r3']);
  });
});
