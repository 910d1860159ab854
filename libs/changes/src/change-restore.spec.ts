import type { AgentChange, AgentChangeSide } from '@h/contracts';
import { planRestore, sha256, type PathState } from './change-restore';

const text = (content: string): AgentChangeSide => ({ exists: true, content, bytes: Buffer.byteLength(content), binary: false, directory: false, tooLarge: false });
const none: AgentChangeSide = { exists: false, content: null, bytes: 0, binary: false, directory: false, tooLarge: false };
let n = 0;
const change = (kind: AgentChange['kind'], path: string, before: AgentChangeSide, after: AgentChangeSide, fromPath: string | null = null) => ({
  id: `c${++n}`,
  kind,
  path,
  fromPath,
  before,
  after,
});
const files = (map: Record<string, string>) => async (path: string): Promise<PathState> =>
  path in map ? { kind: 'file', data: Buffer.from(map[path]), size: Buffer.byteLength(map[path]) } : { kind: 'none' };

describe(planRestore.name, () => {
  it('should undo two edits of one file newest first when the file still holds the last one', async () => {
    const first = change('modify', 'a.txt', text('one\n'), text('two\n'));
    const second = change('modify', 'a.txt', text('two\n'), text('three\n'));
    const plan = await planRestore([second, first], files({ 'a.txt': 'three\n' }));
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.steps.map((s) => s.step)).toEqual([
      { op: 'write', path: 'a.txt', content: 'two\n', ifSha256: sha256('three\n') },
      { op: 'write', path: 'a.txt', content: 'one\n', ifSha256: sha256('two\n') },
    ]);
  });

  it('should refuse the whole plan with a conflict when someone changed the file since', async () => {
    const created = change('create', 'new.txt', none, text('agent\n'));
    const edited = change('modify', 'a.txt', text('one\n'), text('two\n'));
    const plan = await planRestore([edited, created], files({ 'a.txt': 'teammate\n', 'new.txt': 'agent\n' }));
    expect(plan).toMatchObject({ ok: false, problem: 'conflict', path: 'a.txt' });
  });

  it('should delete a created file, recreate a deleted one and rename back', async () => {
    const plan = await planRestore(
      [change('create', 'n.txt', none, text('x')), change('delete', 'd.txt', text('old'), none), change('rename', 'b.txt', text('r'), text('r'), 'a.txt')],
      files({ 'n.txt': 'x', 'b.txt': 'r' }),
    );
    expect(plan.ok && plan.steps.map((s) => s.step)).toEqual([
      { op: 'delete', path: 'n.txt' },
      { op: 'write', path: 'd.txt', content: 'old', ifSha256: null },
      { op: 'move', from: 'b.txt', to: 'a.txt' },
    ]);
  });

  it('should say a binary earlier side cannot be restored', async () => {
    const binary: AgentChangeSide = { ...text(''), content: null, binary: true, bytes: 3 };
    const plan = await planRestore([change('delete', 'img.png', binary, none)], files({}));
    expect(plan).toMatchObject({ ok: false, problem: 'not_restorable' });
  });
});
