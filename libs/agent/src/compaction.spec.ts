import type { ChatMessage } from '@h/llm';
import { compactionFor, DEFAULT_COMPACTION, planCompaction, type CompactionPlan } from './compaction';
import { COMPACTION_PREFIX, pairingViolations } from './conversation';

function turn(i: number, resultChars = 100): ChatMessage[] {
  return [
    { role: 'user', content: `request ${i}` },
    { role: 'assistant', content: null, toolCalls: [{ id: `c${i}a`, name: 'read_file', arguments: `{"path":"f${i}.js"}` }, { id: `c${i}b`, name: 'grep', arguments: '{}' }] },
    { role: 'tool', toolCallId: `c${i}a`, name: 'read_file', content: 'x'.repeat(resultChars) },
    { role: 'tool', toolCallId: `c${i}b`, name: 'grep', content: 'No matches' },
    { role: 'assistant', content: `answer ${i}` },
  ];
}

function mustPlan(messages: ChatMessage[]): CompactionPlan {
  const plan = planCompaction(messages, 'system');
  if (!plan) throw new Error('expected a compaction plan');
  return plan;
}

function apply(messages: ChatMessage[], plan: CompactionPlan): ChatMessage[] {
  return [{ role: 'user', content: plan.summary }, ...messages.slice(plan.replacedMessages)];
}

describe(planCompaction.name, () => {
  it('should do nothing below both thresholds', () => {
    expect(planCompaction(turn(1), 'system')).toBeNull();
  });

  it('should compact past the message threshold without splitting a tool pair and keep the recent turns', () => {
    const messages = Array.from({ length: 6 }, (_, i) => turn(i)).flat(); // 30 messages
    const plan = mustPlan(messages);
    const after = apply(messages, plan);
    expect(pairingViolations(after.slice(1))).toEqual([]);
    expect(messages[plan.replacedMessages].role).not.toBe('tool');
    expect(after.length).toBeLessThanOrEqual(DEFAULT_COMPACTION.triggerMessages / 2 + 1);
    expect(after.at(-1)).toEqual({ role: 'assistant', content: 'answer 5' });
    expect(plan.summary.startsWith(COMPACTION_PREFIX)).toBe(true);
    expect(plan.summary).toContain('User: request 0');
    expect(plan.summary).toContain('- read_file {"path":"f0.js"} → xxxx');
    // Hysteresis: the compacted conversation does not trigger again on the next step.
    expect(planCompaction(after, 'system')).toBeNull();
  });

  it('should compact past the token threshold and bound the summary', () => {
    const messages = Array.from({ length: 4 }, (_, i) => turn(i, 12_000)).flat();
    const plan = mustPlan(messages);
    expect(plan.tokensBefore).toBeGreaterThan(10_000);
    expect(plan.tokensAfter).toBeLessThan(plan.tokensBefore);
    expect(plan.summary.length).toBeLessThan(DEFAULT_COMPACTION.summaryCharBudget + 200);
    expect(pairingViolations(apply(messages, plan).slice(1))).toEqual([]);
  });

  it('should keep the current request verbatim when its own turn has to be compacted', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Rename every helper in src/.' }];
    for (let i = 0; i < 8; i++) {
      messages.push({ role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: '{}' }] });
      messages.push({ role: 'tool', toolCallId: `c${i}`, name: 'read_file', content: 'y'.repeat(8_000) });
    }
    const plan = mustPlan(messages);
    expect(plan.summary).toContain('Current request (verbatim): Rename every helper in src/.');
    const after = apply(messages, plan);
    expect(after[1].role).toBe('assistant');
    expect(pairingViolations(after.slice(1))).toEqual([]);
  });

  it('should roll an earlier summary into the next one', () => {
    const first = Array.from({ length: 6 }, (_, i) => turn(i)).flat();
    const once = apply(first, mustPlan(first));
    const grown = [...once, ...Array.from({ length: 4 }, (_, i) => turn(10 + i)).flat()];
    const plan = mustPlan(grown);
    expect(plan.summary).toContain('User: request 0');
    expect(plan.summary).toContain('User: request 10');
    expect(plan.summary.match(/\[Compacted history\]/g)).toHaveLength(1);
  });

  it('should carry the contents of recently read files into the summary, but not stale or duplicate ones', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Tidy src/.' }];
    const read = (id: string, path: string, text: string): ChatMessage[] => [
      { role: 'assistant', content: null, toolCalls: [{ id, name: 'read_file', arguments: JSON.stringify({ path }) }] },
      { role: 'tool', toolCallId: id, name: 'read_file', content: text },
    ];
    messages.push(...read('r1', 'src/a.ts', '1\texport const a = 1;'));
    messages.push(...read('r2', 'src/b.ts', '1\texport const b = 2;'));
    messages.push(
      { role: 'assistant', content: null, toolCalls: [{ id: 'e1', name: 'edit_file', arguments: JSON.stringify({ path: 'src/b.ts', old_string: '2', new_string: '3' }) }] },
      { role: 'tool', toolCallId: 'e1', name: 'edit_file', content: 'Edited src/b.ts (line 1)' },
    );
    for (let i = 0; i < 14; i++) messages.push(...read(`x${i}`, 'src/c.ts', `1\t${'c'.repeat(300)}`));
    const plan = mustPlan(messages);
    const files = plan.summary.slice(plan.summary.indexOf('Files read recently'));
    expect(files).toContain('--- src/a.ts\n1\texport const a = 1;');
    // Changed after it was read: its old text would mislead.
    expect(files).not.toContain('src/b.ts');
    // Still in the kept messages: not repeated.
    expect(files).not.toContain('src/c.ts');
    // A later compaction keeps the file section once, not as history lines.
    const again = apply(messages, plan);
    for (let i = 0; i < 14; i++) again.push(...read(`y${i}`, 'src/d.ts', `1\t${'d'.repeat(300)}`));
    const next = mustPlan(again);
    expect(next.summary.match(/Files read recently/g)).toHaveLength(1);
    expect(next.summary).toContain('--- src/a.ts\n1\texport const a = 1;');
  });
});

describe(compactionFor.name, () => {
  const longSession = (): ChatMessage[] => Array.from({ length: 12 }, (_, i) => turn(i, 16_000)).flat(); // ~48k tokens, 60 messages

  it('should scale the thresholds with the context window, never below the seed figures', () => {
    expect(compactionFor(1_000_000).triggerTokens).toBe(500_000);
    expect(compactionFor(128_000).triggerTokens).toBe(64_000);
    expect(compactionFor(8_000)).toMatchObject({ triggerTokens: DEFAULT_COMPACTION.triggerTokens, triggerMessages: DEFAULT_COMPACTION.triggerMessages });
    expect(compactionFor(1_000_000, { triggerTokens: 2_500 }).triggerTokens).toBe(2_500);
  });

  it('should not compact a 1M-token model at the seed thresholds, but a 64k one', () => {
    expect(planCompaction(longSession(), 'system', compactionFor(1_000_000))).toBeNull();
    expect(planCompaction(longSession(), 'system', compactionFor(128_000))).toBeNull();
    const small = planCompaction(longSession(), 'system', compactionFor(64_000));
    expect(small?.tokensBefore).toBeGreaterThan(32_000);
    expect(small?.tokensAfter).toBeLessThan(16_000);
  });
});
