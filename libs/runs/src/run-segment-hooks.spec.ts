import type { AppConfig } from '@h/config';
import type { AgentChangeRepository, EventEnvelope, EventRepository, RunRecord } from '@h/db';
import type { SandboxRecord } from '@h/sandbox';
import type { SandboxManager } from '@h/workspaces';
import { RunSegmentHooks } from './run-segment-hooks';

const rejected = (seq: number) =>
  ({
    seq,
    runId: 'r1',
    type: 'file.change.resolved',
    data: { changeIds: [`c${seq}`], status: 'rejected', changes: [{ changeId: `c${seq}`, kind: 'edit', path: 'a.ts', fromPath: null }], decidedBy: 'u1' },
  }) as unknown as EventEnvelope;

function setup() {
  const reads: number[] = [];
  let log: EventEnvelope[] = [];
  const events = {
    list: async (_s: string, o: { after: number }) => (reads.push(o.after), log.filter((e) => e.seq > o.after)),
  } as unknown as EventRepository;
  const hooks = new RunSegmentHooks({ env: {} } as AppConfig, events, {} as AgentChangeRepository, {} as SandboxManager);
  return { reads, hooks, setLog: (l: EventEnvelope[]) => (log = l) };
}

describe(RunSegmentHooks.name, () => {
  it('should read the log for rejects only when the bus told of one, and tell each reject once', async () => {
    const { reads, hooks, setLog } = setup();
    const notes = hooks.reviewNotes('s1', 10);
    // Model requests with nothing resolved meanwhile: no query each.
    expect(await notes()).toEqual([]);
    expect(await notes()).toEqual([]);
    expect(reads).toEqual([]);

    setLog([rejected(11)]);
    hooks.noteResolved('s1');
    const told = await notes();
    expect(told).toHaveLength(1);
    expect(told[0].changeIds).toEqual(['c11']);
    expect(told[0].text).toContain('a.ts');
    expect(reads).toEqual([10]);
    // Told once: the next request reads nothing again.
    expect(await notes()).toEqual([]);
    expect(reads).toEqual([10]);
  });

  it('should still find a reject whose publish was lost, after the read interval', async () => {
    const { reads, hooks, setLog } = setup();
    let now = 1_000;
    const spy = jest.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const notes = hooks.reviewNotes('s1', 0);
      setLog([rejected(1)]);
      expect(await notes()).toEqual([]);
      now += 2_500;
      expect((await notes()).map((n) => n.changeIds)).toEqual([['c1']]);
      expect(reads).toEqual([0]);
    } finally {
      spy.mockRestore();
    }
  });

  describe('checkpoints', () => {
    const run = { id: 'r1', sessionId: 's1' } as RunRecord;
    const record = { workspaceId: 'w1' } as unknown as SandboxRecord;

    /** Hooks whose sandbox answers checkpoint.create with the given ids in turn (an Error: it fails). */
    function withSandbox(answers: (string | Error)[]) {
      const stored: [string, string][] = [];
      let created = 0;
      const client = {
        call: async (method: string) => {
          expect(method).toBe('checkpoint.create');
          const a = answers[created++];
          if (a instanceof Error) throw a;
          return { id: a };
        },
      };
      const sandboxes = { driver: async () => ({ connect: async () => client }) } as unknown as SandboxManager;
      const changes = { setRunCheckpoint: async (runId: string, id: string) => void stored.push([runId, id]) } as unknown as AgentChangeRepository;
      const hooks = new RunSegmentHooks({ env: { CHECKPOINT_FILE_MAX_BYTES: 1024 } } as AppConfig, {} as EventRepository, changes, sandboxes);
      return { hooks, stored, created: () => created };
    }

    it('should keep the checkpoint a resumed run already has', async () => {
      const { hooks, stored, created } = withSandbox(['cp-new']);
      await hooks.checkpointOnce(run, record, 'cp-old')();
      expect(stored).toEqual([]);
      expect(created()).toBe(0);
    });

    it('should take one checkpoint for a new run however often the calls ask, and record it', async () => {
      const { hooks, stored, created } = withSandbox(['cp-1', 'cp-2']);
      const checkpoint = hooks.checkpointOnce(run, record, null);
      await Promise.all([checkpoint(), checkpoint()]);
      await checkpoint();
      expect(stored).toEqual([['r1', 'cp-1']]);
      expect(created()).toBe(1);
    });

    it('should let the run go on without a checkpoint when the sandbox cannot take one', async () => {
      const { hooks, stored } = withSandbox([new Error('disk full')]);
      await expect(hooks.checkpointOnce(run, record, null)()).resolves.toBeUndefined();
      expect(stored).toEqual([]);
    });
  });
});
