import { MemoryOutputStore } from '../output.store';
import { newRunToolState, type ToolContext } from '../tool.types';
import { delegateParallelTool, delegationRequests } from './delegate.tools';

describe('delegate tools', () => {
  it('should read what a call asks for, or why it cannot run', () => {
    expect(delegationRequests('delegate_task', JSON.stringify({ task: ' find A ', agent_type: 'code-search' }))).toEqual([{ profile: 'code-search', task: 'find A' }]);
    expect(delegationRequests('read_file', '{}')).toBeNull();
    expect(delegationRequests('delegate_task', JSON.stringify({ task: 'x', agent_type: 'wizard' }))).toEqual({ error: expect.stringContaining('agent_type') });
    const five = Array.from({ length: 5 }, (_, i) => ({ task: `t${i}`, agent_type: 'researcher' }));
    expect(delegationRequests('delegate_parallel', JSON.stringify({ tasks: five }))).toEqual({ error: expect.stringContaining('at most 4') });
  });

  it('should report every outcome, a failure among them without failing the call', async () => {
    const ctx = {
      workspace: {} as ToolContext['workspace'],
      signal: new AbortController().signal,
      outputs: new MemoryOutputStore(),
      callId: 'c1',
      state: newRunToolState(),
      delegation: {
        outcomes: async () => [
          { runId: 'a', profile: 'code-search' as const, task: 'find', status: 'completed' as const, result: 'found in a.ts:1', error: null },
          { runId: 'b', profile: 'researcher' as const, task: 'ask', status: 'failed' as const, result: '', error: { code: 'MODEL_ERROR', message: 'refused' } },
        ],
      },
    } as ToolContext;
    await expect(delegateParallelTool.execute({ tasks: [] }, ctx)).rejects.toThrow('at least one task');
    const result = await delegateParallelTool.execute({ tasks: [{ task: 'find', agent_type: 'code-search' }, { task: 'ask', agent_type: 'researcher' }] }, ctx);
    expect(result.isError).toBeUndefined();
    expect(result.text).toContain('2 sub-agents ended: 1 completed, 1 did not.');
    expect(result.text).toContain('[1] [Code Search Agent] Completed.\nfound in a.ts:1');
    expect(result.text).toContain('[2] [Researcher Agent] Failed (MODEL_ERROR): refused');
  });
});
