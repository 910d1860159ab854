import { assertSessionEvent, InvalidEventError } from './agent-events';

const usage = { requests: 1, promptTokens: 10, completionTokens: 2, cacheHitTokens: 0, cacheMissTokens: 10, reasoningTokens: 0, costUsd: 0.001 };

describe(assertSessionEvent.name, () => {
  it('should accept agent events and the permission events of the log', () => {
    expect(() => assertSessionEvent({ type: 'run.done', data: { summary: null, reply: 'ok', usage } })).not.toThrow();
    expect(() => assertSessionEvent({ type: 'permission.requested', data: { permissionId: 'p', toolCallId: 'c', toolName: 'run_command', input: { command: 'ls' } } })).not.toThrow();
    const resolved = { permissionId: 'p', toolCallId: 'c', toolName: 'run_command', behavior: 'deny', updatedInput: null, message: null, decidedBy: 'u' };
    expect(() => assertSessionEvent({ type: 'permission.resolved', data: resolved })).not.toThrow();
    expect(() => assertSessionEvent({ type: 'run.cancelled', data: { usage, by: 'u' } })).not.toThrow();
  });

  it('should throw naming the event and the field when a producer writes a wrong shape', () => {
    expect(() => assertSessionEvent({ type: 'tool.end', data: { toolCallId: 'c', name: 'x', result: 1, isError: false, durationMs: 1 } })).toThrow(
      /invalid tool\.end event: result/,
    );
    expect(() => assertSessionEvent({ type: 'permission.resolved', data: { permissionId: 'p', behavior: 'maybe' } })).toThrow(InvalidEventError);
    expect(() => assertSessionEvent({ type: 'run.exploded', data: {} })).toThrow(/unknown event type/);
  });
});
