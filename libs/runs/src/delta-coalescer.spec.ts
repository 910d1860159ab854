import { DeltaCoalescer, type CoalescedDelta } from './delta-coalescer';

const nextTurn = () => new Promise((r) => setImmediate(r));

describe(DeltaCoalescer.name, () => {
  it('should publish the pieces of one turn as one delta, in order', async () => {
    const out: CoalescedDelta[] = [];
    const c = new DeltaCoalescer((d) => out.push(d));
    c.push('thinking.delta', 'I should ');
    c.push('thinking.delta', 'read it.');
    c.push('text.delta', 'Reading');
    c.push('text.delta', ' now.');
    expect(out).toEqual([expect.objectContaining({ type: 'thinking.delta', delta: 'I should read it.' })]);
    await nextTurn();
    expect(out.map((d) => [d.type, d.delta])).toEqual([
      ['thinking.delta', 'I should read it.'],
      ['text.delta', 'Reading now.'],
    ]);
  });

  it('should publish what is pending before an event that follows it, and pieces of later turns apart', async () => {
    const out: string[] = [];
    const c = new DeltaCoalescer((d) => out.push(d.delta));
    c.push('text.delta', 'a');
    c.flush();
    out.push('<message.assistant>');
    c.push('text.delta', 'b');
    await nextTurn();
    c.push('text.delta', 'c');
    await nextTurn();
    expect(out).toEqual(['a', '<message.assistant>', 'b', 'c']);
  });
});
