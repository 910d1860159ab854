import type { EventEnvelope } from '@h/contracts';
import { AGENT_ACTIVITY_LINGER_MS, applyAgentEvent, applyFilesChanged, currentAgentActivity, type AgentActivityState } from './agent-activity-state';

let seq = 0;
const ev = (type: string, data: unknown, sessionId = 's1', ts = '2026-12-01T12:00:00.000Z'): EventEnvelope => ({ sessionId, seq: ++seq, runId: 'r1', ts, type, data });
const start = (toolCallId: string, name: string, args: unknown, sessionId = 's1') => ev('tool.start', { toolCallId, name, arguments: JSON.stringify(args), category: 'write' }, sessionId);
const end = (toolCallId: string, sessionId = 's1') => ev('tool.end', { toolCallId, name: 'x', result: 'ok', isError: false, durationMs: 1 }, sessionId);

describe('agent activity', () => {
  it('should mark a file from the write tool\'s start until a moment after its end', () => {
    let s: AgentActivityState = [];
    s = applyAgentEvent(s, start('c1', 'edit_file', { path: 'src/math.js', old_string: 'a', new_string: 'b' }), 1000);
    expect(currentAgentActivity(s, 5000)).toEqual([{ path: 'src/math.js', sessionId: 's1', since: '2026-12-01T12:00:00.000Z' }]);
    s = applyAgentEvent(s, end('c1'), 6000);
    expect(currentAgentActivity(s, 6000 + AGENT_ACTIVITY_LINGER_MS - 1)).toHaveLength(1);
    expect(currentAgentActivity(s, 6000 + AGENT_ACTIVITY_LINGER_MS)).toEqual([]);
  });

  it('should keep the marker up while the change lands in the workspace (files.changed)', () => {
    let s = applyAgentEvent(applyAgentEvent([], start('c1', 'write_file', { path: 'a.txt', content: 'x' }), 0), end('c1'), 1000);
    s = applyFilesChanged(s, { workspaceId: 'w', changes: [{ path: 'a.txt', kind: 'changed' }] }, 3000);
    expect(currentAgentActivity(s, 3000 + AGENT_ACTIVITY_LINGER_MS - 1)).toHaveLength(1);
  });

  it('should name both paths of a rename, and ignore reads and unparsable arguments', () => {
    let s = applyAgentEvent([], start('c1', 'rename_file', { old_path: 'old.ts', new_path: './new.ts' }), 0);
    s = applyAgentEvent(s, start('c2', 'read_file', { path: 'r.ts' }), 0);
    s = applyAgentEvent(s, ev('tool.start', { toolCallId: 'c3', name: 'write_file', arguments: '{not json', category: 'write' }), 0);
    expect(currentAgentActivity(s, 0).map((a) => a.path)).toEqual(['old.ts', 'new.ts']);
  });

  it('should close every open marker of a session whose run ended, and only that session\'s', () => {
    let s = applyAgentEvent([], start('c1', 'delete_file', { path: 'gone.ts' }), 0);
    s = applyAgentEvent(s, start('c9', 'write_file', { path: 'other.ts', content: '' }, 's2'), 0);
    s = applyAgentEvent(s, ev('run.cancelled', { usage: {} }), 100);
    expect(currentAgentActivity(s, 100 + AGENT_ACTIVITY_LINGER_MS).map((a) => a.path)).toEqual(['other.ts']);
  });

  it('should mark a file while the agent waits for approval to change it, and clear it on a denial', () => {
    const ask = ev('permission.requested', { permissionId: 'p1', toolCallId: 'c5', toolName: 'edit_file', input: { path: 'src/math.js', old_string: 'a', new_string: 'b' } });
    let s = applyAgentEvent([], ask, 0);
    expect(currentAgentActivity(s, 60_000).map((a) => a.path)).toEqual(['src/math.js']);
    const allowed = applyAgentEvent(s, start('c5', 'edit_file', { path: 'src/math.js', old_string: 'a', new_string: 'b' }), 10);
    expect(allowed).toHaveLength(1);
    s = applyAgentEvent(s, ev('permission.resolved', { permissionId: 'p1', toolCallId: 'c5', toolName: 'edit_file', behavior: 'deny', updatedInput: null, message: null, decidedBy: 'u' }), 100);
    expect(currentAgentActivity(s, 100 + AGENT_ACTIVITY_LINGER_MS)).toEqual([]);
  });
});
