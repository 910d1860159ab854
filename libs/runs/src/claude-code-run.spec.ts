import { AppConfig, parseEnv } from '@h/config';
import type { AgentEvent } from '@h/contracts';
import type { AgentSessionRecord, EventEnvelope, RunRecord } from '@h/db';
import { ClaudeCodeRunner, type ClaudeCodeSegment } from './claude-code-run';

// The runner's refusals before anything starts (the whole turn runs in
// test/integration/claude-code): each ends the run with its own code and a run.failed event, and
// neither the sandbox nor the gateway is touched.
function runner(env: Record<string, string> = {}, key: string | null = 'sk-ant-x') {
  const touched: string[] = [];
  const config = new AppConfig(parseEnv({ NODE_ENV: 'test', DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://127.0.0.1:6379', H_MASTER_KEY: Buffer.alloc(32).toString('base64'), ...env }));
  const never = (what: string) => () => {
    touched.push(what);
    throw new Error(`${what} must not be used`);
  };
  const r = new ClaudeCodeRunner(
    config,
    { findById: never('runs') } as never,
    { mergeState: never('sessions') } as never,
    { cancelPendingForRun: async () => undefined } as never,
    { onMessage: never('bus') } as never,
    { open: never('sandbox'), driver: never('driver') } as never,
    { reveal: async () => key } as never,
  );
  return { r, touched };
}

function segment(stored: Array<Partial<EventEnvelope>>): { seg: ClaudeCodeSegment; recorded: AgentEvent[] } {
  const recorded: AgentEvent[] = [];
  const seg: ClaudeCodeSegment = {
    run: { id: 'run-1', sessionId: 's1' } as RunRecord,
    leaseId: 'lease',
    session: { id: 's1', teamId: 't1', engine: 'claude-code', model: 'claude-sonnet-4-5', permissionMode: 'approve', maxSteps: null, state: {} } as unknown as AgentSessionRecord,
    workspace: { id: 'w1', teamId: 't1', networkEnabled: false },
    stored: stored as EventEnvelope[],
    signal: new AbortController().signal,
    record: async (e) => void recorded.push(e),
    flush: async () => undefined,
  };
  return { seg, recorded };
}

const message = { type: 'message.user', runId: 'run-1', seq: 1, data: { content: 'fix it' } };

describe(ClaudeCodeRunner.name, () => {
  it('should not run a turn a second time after its worker died mid-turn (ENGINE_INTERRUPTED)', async () => {
    const { r, touched } = runner();
    const { seg, recorded } = segment([message, { type: 'run.started', runId: 'run-1', seq: 2, data: {} }]);
    expect(await r.execute(seg)).toEqual({ status: 'failed', error: { code: 'ENGINE_INTERRUPTED', message: expect.stringContaining('send the message again') } });
    expect(recorded).toEqual([{ type: 'run.failed', data: expect.objectContaining({ code: 'ENGINE_INTERRUPTED', usage: expect.objectContaining({ requests: 0 }) }) }]);
    expect(touched).toEqual([]);
  });

  it('should fail with PROVIDER_KEY_MISSING naming where the Anthropic key is set when the team has no key', async () => {
    const { r, touched } = runner({}, null);
    const { seg } = segment([message]);
    const result = await r.execute(seg);
    expect(result.error?.code).toBe('PROVIDER_KEY_MISSING');
    expect(result.error?.message).toContain('Settings → Anthropic API key');
    expect(touched).toEqual([]);
  });

  it('should fail with ENGINE_UNAVAILABLE when the instance turned the gateway off', async () => {
    const { r, touched } = runner({ MODEL_GATEWAY_SOCKET_DIR: 'off' });
    const { seg } = segment([message]);
    const result = await r.execute(seg);
    expect(result.error).toEqual({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('MODEL_GATEWAY_SOCKET_DIR=off') });
    expect(touched).toEqual([]);
  });
});
