import { MCP_TOOL_NAME_MAX_LENGTH } from '@h/contracts';
import { namespacedToolName } from './mcp-tool-name';

describe(namespacedToolName.name, () => {
  it('should keep a plain tool name as mcp__<server>__<tool>', () => {
    expect(namespacedToolName('notes', 'read_note')).toBe('mcp__notes__read_note');
  });

  it('should replace characters function names refuse and mark the change with a hash', () => {
    const name = namespacedToolName('notes', 'read.note/v2');
    expect(name).toMatch(/^mcp__notes__read_note_v2_[0-9a-f]{8}$/);
    expect(namespacedToolName('notes', 'read_note_v2')).not.toBe(name);
  });

  it('should bound long names and keep two long names with a common start apart', () => {
    const a = namespacedToolName('a-long-server-name', `${'x'.repeat(80)}a`);
    const b = namespacedToolName('a-long-server-name', `${'x'.repeat(80)}b`);
    expect(a.length).toBeLessThanOrEqual(MCP_TOOL_NAME_MAX_LENGTH);
    expect(b.length).toBeLessThanOrEqual(MCP_TOOL_NAME_MAX_LENGTH);
    expect(a).not.toBe(b);
  });

  it('should give an empty tool name a hash instead of an empty suffix', () => {
    expect(namespacedToolName('s', '')).toMatch(/^mcp__s___[0-9a-f]{8}$/);
  });
});
