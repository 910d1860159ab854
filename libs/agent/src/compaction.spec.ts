import type { ChatMessage } from '@h/llm';
import { DEFAULT_COMPACTION, planCompaction, type CompactionPlan } from './compaction';
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
    expect(plan).not.toBeNull();
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
});
