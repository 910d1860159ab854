import type { Todo } from '@h/contracts';

const MARK: Record<Todo['status'], string> = { pending: '○', in_progress: '◐', completed: '●', cancelled: '⊘' };
const LABEL: Record<Todo['status'], string> = { pending: 'to do', in_progress: 'in progress', completed: 'done', cancelled: 'cancelled' };

export function TodosPanel({ todos }: { todos: Todo[] }) {
  return (
    <section className="side-panel" aria-labelledby="console-todos">
      <h3 id="console-todos">Plan</h3>
      {todos.length === 0 ? (
        <p className="muted small">The agent has not written a plan yet.</p>
      ) : (
        <ul className="todo-list">
          {todos.map((todo, i) => (
            <li key={i} className={`todo todo-${todo.status}`}>
              <span className="todo-mark" aria-hidden="true">
                {MARK[todo.status]}
              </span>
              <span>
                {todo.content}
                <span className="visually-hidden"> ({LABEL[todo.status]})</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
