import type { StepStatus } from '@h/contracts';
import type { StepPlanView } from './step-plan-state';

const MARK: Record<StepStatus, string> = { pending: '○', in_progress: '◐', completed: '●', failed: '✕', skipped: '⊘' };
const LABEL: Record<StepStatus, string> = { pending: 'pending', in_progress: 'in progress', completed: 'completed', failed: 'failed', skipped: 'skipped' };

/** The locked plan of a step-by-step run: the server holds it, the agent cannot change it. */
export function StepPlanPanel({ plan }: { plan: StepPlanView }) {
  const done = plan.steps.filter((s) => s.status !== 'pending' && s.status !== 'in_progress').length;
  return (
    <section className="side-panel step-plan" aria-labelledby="console-step-plan">
      <h3 id="console-step-plan">
        Locked plan <span className="muted small">({done}/{plan.steps.length} steps done)</span>
      </h3>
      <ol className="todo-list">
        {plan.steps.map((step, i) => (
          <li key={i} className={`todo todo-${step.status}`} data-step-status={step.status}>
            <span className="todo-mark" aria-hidden="true">
              {MARK[step.status]}
            </span>
            <span>
              {step.content}
              <span className="step-status muted small"> — {LABEL[step.status]}</span>
              {step.result ? (
                <details className="step-result">
                  <summary className="small">Result</summary>
                  <p className="small">{step.result}</p>
                </details>
              ) : null}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
