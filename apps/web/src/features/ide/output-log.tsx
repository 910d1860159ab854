'use client';

import { useSyncExternalStore } from 'react';
import { useWorkbench } from './workbench';

export interface OutputLine {
  id: number;
  at: string;
  level: 'info' | 'error';
  text: string;
}

const MAX_LINES = 500;

// What the IDE did and what went wrong (saves, reloads, conflicts, failed requests), so a failure
// that was shown briefly can still be read; kept in memory for this page only.
export class OutputLog {
  private lines: OutputLine[] = [];
  private next = 1;
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.lines;

  info(text: string): void {
    this.push('info', text);
  }

  error(text: string): void {
    this.push('error', text);
  }

  private push(level: OutputLine['level'], text: string): void {
    const line = { id: this.next++, at: new Date().toLocaleTimeString(), level, text };
    this.lines = [...this.lines.slice(-(MAX_LINES - 1)), line];
    for (const l of this.listeners) l();
  }
}

export function OutputView() {
  const { output } = useWorkbench();
  const lines = useSyncExternalStore(output.subscribe, output.snapshot, output.snapshot);
  if (!lines.length) return <p className="muted small ide-pad">Nothing yet: saves, reloads and errors of this page are listed here.</p>;
  return (
    <ol className="ide-output" aria-label="IDE output" aria-live="polite">
      {lines.map((l) => (
        <li key={l.id} className={l.level === 'error' ? 'ide-output-error' : undefined}>
          <span className="muted">{l.at}</span> {l.text}
        </li>
      ))}
    </ol>
  );
}
