'use client';

import { useMemo, type KeyboardEvent } from 'react';
import type { Diagnostic } from '@h/contracts';
import type { IdeContext } from '../ide/panels';
import { problemCounts, problemGroups, type DiagnosticsState, type ProblemCounts } from './diagnostics-state';
import { useDiagnostics } from './use-diagnostics';
import './diagnostics.css';

export function countsLabel({ errors, warnings }: ProblemCounts): string {
  return `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`;
}

function emptyText(state: DiagnosticsState): string {
  if (state.connection === 'failed') return `Problems are not available${state.error ? `: ${state.error}` : '.'}`;
  if (state.connection === 'connecting') return 'Connecting to the language servers…';
  return 'No problems have been detected in the workspace.';
}

/** Arrow keys move between rows (one tab stop for the list), Enter or Space opens. */
function onListKey(event: KeyboardEvent<HTMLUListElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const rows = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button.problem-row')];
  const i = rows.indexOf(document.activeElement as HTMLButtonElement);
  const next = rows[i < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, i + (event.key === 'ArrowDown' ? 1 : -1)))];
  if (!next) return;
  event.preventDefault();
  next.focus();
}

// The bottom panel's Problems tab: every problem the workspace's language servers report (the same
// list for every member), by file; a row opens the file at the problem.
export function ProblemsPanel({ ctx }: { ctx: IdeContext }) {
  const state = useDiagnostics(ctx.workspaceId);
  const groups = useMemo(() => problemGroups(state), [state]);
  if (!groups.length) return <p className="muted small ide-pad" role="status">{emptyText(state)}</p>;
  const open = (path: string, d: Diagnostic) => ctx.openFile(path, { line: d.startLine, column: d.startColumn });
  return (
    <div className="problems">
      {state.connection === 'reconnecting' ? <p className="muted small problems-note" role="status">Reconnecting: the list may be out of date.</p> : null}
      <ul className="problems-files" aria-label={`Problems: ${countsLabel(problemCounts(state))}`} onKeyDown={onListKey}>
        {groups.map((g) => (
          <li key={g.path} className="problems-file">
            <div className="problems-file-head" data-testid="problems-file" data-path={g.path}>
              <span className="problems-file-name">{g.path}</span>
              <span className="muted">{countsLabel(g)}</span>
            </div>
            <ul aria-label={g.path}>
              {g.diagnostics.map((d, i) => (
                <li key={`${d.startLine}:${d.startColumn}:${i}`}>
                  <button
                    type="button"
                    className="problem-row"
                    data-testid="problem-row"
                    aria-label={`${d.severity === 'error' ? 'Error' : 'Warning'}: ${d.message} (${g.path}, line ${d.startLine}, column ${d.startColumn})`}
                    onClick={() => open(g.path, d)}
                  >
                    <span className={`problem-icon problem-${d.severity}`} aria-hidden="true">
                      {d.severity === 'error' ? '⊗' : '⚠'}
                    </span>
                    <span className="problem-message">{d.message}</span>
                    {d.source ? (
                      <span className="muted">
                        {d.source}
                        {d.code ? `(${d.code})` : ''}
                      </span>
                    ) : null}
                    <span className="muted problem-at">
                      [Ln {d.startLine}, Col {d.startColumn}]
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The status bar's counts (ide-chrome sums the registered problem sources); a click opens the Problems tab. */
export function ProblemsStatus({ counts, onOpen }: { counts: ProblemCounts; onOpen: () => void }) {
  return (
    <button type="button" className="status-item status-button" data-testid="status-problems" aria-label={`Problems: ${countsLabel(counts)}`} title="Show the Problems panel (Ctrl/⌘+Shift+M)" onClick={onOpen}>
      <span aria-hidden="true">⊗</span> <span data-testid="status-errors">{counts.errors}</span> <span aria-hidden="true">⚠</span>{' '}
      <span data-testid="status-warnings">{counts.warnings}</span>
    </button>
  );
}

/** The bottom tab's title with the count, as VS Code shows it. */
export function ProblemsTabTitle({ workspaceId }: { workspaceId: string }) {
  const counts = problemCounts(useDiagnostics(workspaceId));
  const total = counts.errors + counts.warnings;
  return (
    <>
      Problems{total ? <span className="problems-badge" aria-label={countsLabel(counts)}>{total}</span> : null}
    </>
  );
}
