import { buildGuidance, buildSystemPrompt, ItrSelector, selectChunks } from './itr';

describe(ItrSelector.name, () => {
  it('should always include the core chunks and nothing else for an unrelated request', () => {
    expect(selectChunks('Hello there')).toEqual(['core_rules', 'lang_general']);
  });

  it('should include a chunk only when two of its triggers occur', () => {
    expect(selectChunks('please look at pytest')).toEqual(['core_rules', 'lang_general']);
    expect(selectChunks('pytest fails with a Traceback')).toEqual(['core_rules', 'lang_general', 'lang_python']);
  });

  it('should match extension triggers at a word boundary only', () => {
    expect(selectChunks('styles in app.css and page.html')).toEqual(['core_rules', 'lang_general']);
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

  it('should not let guidance already appended to a message trigger further chunks', () => {
    const itr = new ItrSelector();
    itr.observeMessage({ role: 'tool', content: `ok\n\n${buildGuidance(['diagnostics', 'build_fix'])}` });
    expect(itr.selected()).toEqual(['core_rules', 'lang_general']);
  });

  it('should build a byte-identical system prompt for the same chunks', () => {
    const a = buildSystemPrompt(['core_rules', 'lang_general'], '/workspace');
    expect(buildSystemPrompt(['core_rules', 'lang_general'], '/workspace')).toBe(a);
    expect(a).toContain('write_summary and task_complete, both in one response');
    expect(a.length / 4).toBeLessThan(800);
  });
});
