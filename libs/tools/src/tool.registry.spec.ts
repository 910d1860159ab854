import { CORE_TOOLS, describeFor, ToolRegistry } from './tool.registry';
import type { ToolSpec } from './tool.types';

describe(ToolRegistry.name, () => {
  it('should expose H tool names in a fixed order, frozen so no caller can change the bytes sent', () => {
    const registry = new ToolRegistry();
    const defs = registry.definitions();
    expect(defs.map((d) => d.name)).toEqual([
      'read_file', 'write_file', 'edit_file', 'list_files', 'search_files', 'grep', 'create_directory',
      'rename_file', 'delete_file', 'run_command', 'run_in_terminal', 'kill_terminal', 'read_command_output', 'read_problems', 'read_graph', 'write_todos',
      'write_summary', 'task_complete',
    ]);
    const before = JSON.stringify(defs);
    expect(() => {
      (defs[0] as { description: string }).description = 'changed';
    }).toThrow(TypeError);
    expect(() => (defs as ToolSpec[]).push(defs[0])).toThrow(TypeError);
    expect(JSON.stringify(registry.definitions())).toBe(before);
  });

  it('should leave out description sentences that name a tool the registry does not offer', () => {
    const full = new ToolRegistry().definitions().find((d) => d.name === 'run_command')?.description ?? '';
    expect(full).toContain('read_command_output');
    const alone = new ToolRegistry().only(['run_command']).definitions()[0].description;
    expect(alone).not.toContain('read_command_output');
    expect(alone).toContain('Run a shell command that finishes');
    expect(describeFor('Read a file. Prefer grep to search.', new Set(['read_file']))).toBe('Read a file.');
  });

  it('should declare valid schemas whose required fields exist, and a permission category', () => {
    for (const tool of CORE_TOOLS) {
      const schema = tool.parameters as { type: string; properties: Record<string, unknown>; required?: string[] };
      expect(schema.type).toBe('object');
      for (const name of schema.required ?? []) expect(Object.keys(schema.properties)).toContain(name);
      expect(['read', 'write', 'delete', 'command']).toContain(tool.category);
    }
    const categories = Object.fromEntries(CORE_TOOLS.map((t) => [t.name, t.category]));
    expect(categories).toMatchObject({ write_file: 'write', edit_file: 'write', delete_file: 'delete', run_command: 'command', read_file: 'read' });
  });

  it('should keep the registry order when restricted to a subset', () => {
    expect(new ToolRegistry().only(['grep', 'read_file']).definitions().map((d) => d.name)).toEqual(['read_file', 'grep']);
  });

  it('should answer an unknown tool with an error result listing the real ones', async () => {
    const res = await new ToolRegistry().only(['read_file', 'grep']).run('cat', '{}', {} as never);
    expect(res).toMatchObject({ isError: true, text: 'Unknown tool "cat". Available: read_file, grep' });
  });
});
