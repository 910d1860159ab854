import { CORE_TOOLS, ToolRegistry } from './tool.registry';

describe(ToolRegistry.name, () => {
  it('should expose H tool names in a fixed order with byte-identical definitions', () => {
    const a = new ToolRegistry();
    const b = new ToolRegistry();
    expect(a.definitions().map((d) => d.name)).toEqual([
      'read_file', 'write_file', 'edit_file', 'list_files', 'search_files', 'grep', 'create_directory',
      'rename_file', 'delete_file', 'run_command', 'read_command_output', 'read_problems', 'write_todos',
      'write_summary', 'task_complete',
    ]);
    expect(JSON.stringify(a.definitions())).toBe(JSON.stringify(b.definitions()));
    expect(a.definitions()).toBe(a.definitions());
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
    const res = await new ToolRegistry().run('cat', '{}', {} as never);
    expect(res).toMatchObject({ isError: true, text: expect.stringContaining('Unknown tool "cat". Available: read_file') });
  });
});
