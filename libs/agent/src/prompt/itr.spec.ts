import { CORE_TOOLS, ToolRegistry } from '@h/tools';
import { buildGuidance, buildSystemPrompt, ItrSelector, selectChunks } from './itr';
import { PROMPT_CHUNKS } from './prompt-chunks';

describe(ItrSelector.name, () => {
  it('should always include the core chunks and nothing else for an unrelated request', () => {
    expect(selectChunks('Hello there')).toEqual(['core_rules', 'lang_general', 'prior_history']);
  });

  it('should include a chunk only when two of its triggers occur', () => {
    expect(selectChunks('please look at pytest')).toEqual(['core_rules', 'lang_general', 'prior_history']);
    expect(selectChunks('pytest fails with a Traceback')).toEqual(['core_rules', 'lang_general', 'prior_history', 'lang_python']);
  });

  it('should match extension triggers at a word boundary only', () => {
    expect(selectChunks('styles in app.css and page.html')).toEqual(['core_rules', 'lang_general', 'prior_history']);
    expect(selectChunks('main.c includes util.h')).toContain('lang_c');
  });

  it('should accumulate scores over messages incrementally, tool call names included', () => {
    const itr = new ItrSelector();
    itr.observeMessage({ role: 'user', content: 'The build is broken' });
    expect(itr.selected()).not.toContain('diagnostics');
    itr.observeMessage({ role: 'assistant', content: null, toolCalls: [{ id: '1', name: 'run_command', arguments: '{"command":"make"}' }] });
    expect(itr.selected()).toContain('diagnostics');
    expect(itr.score('build_fix')).toBe(2);
  });

  it('should point dependency questions at read_graph, only where it is offered', () => {
    expect(selectChunks('Which files import this export?')).toContain('code_graph');
    expect(buildGuidance(['code_graph'])).toContain('read_graph answers in one call');
    expect(buildGuidance(['code_graph'], new Set(['read_file', 'grep']))).not.toContain('read_graph');
  });

  it('should not let guidance already appended to a message trigger further chunks', () => {
    const itr = new ItrSelector();
    itr.observeMessage({ role: 'tool', content: `ok\n\n${buildGuidance(['diagnostics', 'build_fix'])}` });
    expect(itr.selected()).toEqual(['core_rules', 'lang_general', 'prior_history']);
  });

  it('should keep the full prompt small and name the finishing tools', () => {
    const prompt = buildSystemPrompt(['core_rules', 'lang_general', 'prior_history'], '/workspace');
    expect(prompt).toContain('write_summary and task_complete, both in one response');
    expect(prompt.length / 4).toBeLessThan(800);
  });
});

describe('prompt and tool definitions name only offered tools', () => {
  const KNOWN = [...CORE_TOOLS.map((t) => t.name), 'run_in_terminal'];
  const PROFILES: Record<string, string[]> = {
    core: CORE_TOOLS.map((t) => t.name),
    'read-only': ['read_file', 'list_files', 'search_files', 'grep'],
    'no read_problems': CORE_TOOLS.map((t) => t.name).filter((n) => n !== 'read_problems'),
    'no run_command': CORE_TOOLS.map((t) => t.name).filter((n) => n !== 'run_command' && n !== 'read_command_output'),
    'no terminals': CORE_TOOLS.map((t) => t.name).filter((n) => n !== 'run_in_terminal' && n !== 'kill_terminal'),
  };

  it.each(Object.entries(PROFILES))('should mention no missing tool for the %s profile', (_profile, names) => {
    const registry = new ToolRegistry().only(names);
    const offered = new Set(registry.definitions().map((d) => d.name));
    const everyChunk = PROMPT_CHUNKS.map((c) => c.id);
    const text = [
      buildSystemPrompt(everyChunk, '/workspace', offered),
      buildGuidance(everyChunk, offered),
      ...registry.definitions().map((d) => d.description),
    ].join('\n');
    const phantoms = KNOWN.filter((n) => !offered.has(n) && new RegExp(`\\b${n}\\b`).test(text));
    expect(phantoms).toEqual([]);
    // What is offered is still explained.
    for (const n of ['read_file', 'run_command', 'write_summary', 'task_complete']) if (offered.has(n)) expect(text).toContain(`${n} `);
  });

  it('should never name the terminal tool while it is not offered', () => {
    const withoutTerminals = new Set(PROFILES.core.filter((n) => n !== 'run_in_terminal' && n !== 'kill_terminal'));
    const server = buildGuidance(['server_startup'], withoutTerminals);
    expect(server).not.toContain('run_in_terminal');
    expect(server).toContain('tell the user the command');
    expect(buildGuidance(['server_startup'])).toContain('(run_in_terminal)');
  });
});
