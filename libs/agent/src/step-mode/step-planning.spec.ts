import type { AgentEvent } from '@h/contracts';
import { createAgentKit, eventTypes, scenario, type AgentKit } from '../testing/agent-test-kit';
import { STEP_PLANNING_GUIDANCE } from './step-plan';
import { planSteps } from './step-planning';
import { stepModeState } from './step-state';

const EMPTY = stepModeState([], 'r');

describe(planSteps.name, () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit()));
  afterEach(() => kit.close());

  const plan = (options: Parameters<typeof planSteps>[0]) => planSteps(options, EMPTY);
  const base = () => ({
    provider: kit.provider,
    model: 'deepseek-v4-flash',
    workspace: kit.workspace,
    userMessage: 'Fix the sum function and its test.',
    onEvent: (e: AgentEvent) => {
      kit.events.push(e);
    },
  });

  it('should offer only write_todos, send a vague plan back with the reason, and lock the corrected one', async () => {
    kit.server.load(
      scenario('plan-retry', [
        { expect: { toolsInclude: ['write_todos'], messagesContain: STEP_PLANNING_GUIDANCE }, toolCalls: [{ name: 'write_todos', arguments: { todos: [{ content: 'Fix it', status: 'pending' }] } }] },
        {
          expect: { lastMessageContains: 'too vague' },
          toolCalls: [{ name: 'write_todos', arguments: { todos: [{ content: 'Add a test for sum() in test/sum.js', status: 'pending' }, { content: 'Fix sum() in src/sum.js', status: 'pending' }] } }],
        },
      ]),
    );
    const { outcome } = await plan(base());
    expect(outcome).toEqual({ status: 'locked', steps: ['Add a test for sum() in test/sum.js', 'Fix sum() in src/sum.js'] });
    expect(kit.server.requests.map((r) => r.body.tools.map((t: { function: { name: string } }) => t.function.name))).toEqual([['write_todos'], ['write_todos']]);
    expect(kit.server.requests.flatMap((r) => r.failures)).toEqual([]);
    const types = eventTypes(kit.events);
    expect(types).not.toContain('run.done');
    expect(types.at(-1)).toBe('step.plan');
  });

  it('should fail with step_plan_invalid after the bounded attempts, giving the last reason', async () => {
    const vague = { toolCalls: [{ name: 'write_todos', arguments: { todos: [{ content: 'Do it', status: 'pending' }] } }] };
    kit.server.load(scenario('plan-vague', [vague, vague, vague]));
    const { outcome } = await plan(base());
    expect(outcome).toMatchObject({ status: 'failed', code: 'step_plan_invalid', message: expect.stringContaining('too vague') });
    expect(kit.server.requests).toHaveLength(3);
    expect(eventTypes(kit.events)).not.toContain('step.plan');
    expect(eventTypes(kit.events)).not.toContain('run.failed');
  });

  it('should fail when the model answers without a plan', async () => {
    kit.server.load(scenario('plan-none', [{ text: 'I would just fix it.' }]));
    expect((await plan(base())).outcome).toMatchObject({ status: 'failed', code: 'step_plan_invalid', message: expect.stringContaining('without writing a plan') });
  });
});
