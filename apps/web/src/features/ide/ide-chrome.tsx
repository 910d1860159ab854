'use client';

import { useState, type KeyboardEvent } from 'react';
import { PROBLEM_SOURCES, STATUS_ITEMS, type BottomTab, type IdeContext, type ProblemSource, type SideView } from './panels';
import { ProblemsStatus } from '../diagnostics/problems-panel';
import type { LiveState } from './use-live-files';

// The fixed parts around the panes: activity bar, bottom panel tabs, status bar.

function arrowNav(event: KeyboardEvent<HTMLElement>, ids: string[], current: string | null, go: (id: string) => void, vertical: boolean) {
  const keys = vertical ? ['ArrowDown', 'ArrowUp'] : ['ArrowRight', 'ArrowLeft'];
  if (!keys.includes(event.key) || !ids.length) return;
  event.preventDefault();
  const i = Math.max(0, current ? ids.indexOf(current) : 0);
  const next = ids[(i + (event.key === keys[0] ? 1 : ids.length - 1)) % ids.length];
  go(next);
  document.getElementById(`view-button-${next}`)?.focus();
}

export function ActivityBar({ views, active, onSelect }: { views: SideView[]; active: string | null; onSelect: (id: string) => void }) {
  const [focus, setFocus] = useState<string | null>(active);
  return (
    <nav className="ide-activity" aria-label="Side views" onKeyDown={(e) => arrowNav(e, views.map((v) => v.id), focus, setFocus, true)}>
      {views.map((v) => (
        <button
          key={v.id}
          id={`view-button-${v.id}`}
          type="button"
          className={`ide-activity-button${active === v.id ? ' ide-activity-active' : ''}`}
          aria-label={v.title}
          aria-pressed={active === v.id}
          title={v.title}
          tabIndex={(focus ?? views[0]?.id) === v.id ? 0 : -1}
          onFocus={() => setFocus(v.id)}
          onClick={() => onSelect(v.id)}
        >
          {v.icon}
        </button>
      ))}
    </nav>
  );
}

export function BottomPanel({ tabs, active, mounted, ctx, onSelect, onHide }: { tabs: BottomTab[]; active: string; mounted: ReadonlySet<string>; ctx: IdeContext; onSelect: (id: string) => void; onHide: () => void }) {
  return (
    <section className="ide-bottom" aria-label="Panel">
      <div className="ide-bottom-header">
        <div role="tablist" aria-label="Panel tabs" onKeyDown={(e) => arrowNav(e, tabs.map((t) => t.id), active, onSelect, false)}>
          {tabs.map((t) => (
            <button key={t.id} id={`view-button-${t.id}`} type="button" role="tab" aria-selected={t.id === active} aria-controls={`bottom-${t.id}`} tabIndex={t.id === active ? 0 : -1} onClick={() => onSelect(t.id)}>
              {t.renderTitle ? t.renderTitle(ctx) : t.title}
            </button>
          ))}
        </div>
        <button type="button" className="icon-button" aria-label="Hide the panel" title="Hide the panel (Ctrl/⌘+J)" onClick={onHide}>
          ×
        </button>
      </div>
      {tabs
        .filter((t) => mounted.has(t.id))
        .map((t) => (
          // Tabs stay mounted once shown (a terminal keeps its screen); only the active one is visible.
          <div key={t.id} id={`bottom-${t.id}`} role="tabpanel" aria-label={t.title} className="ide-bottom-body" hidden={t.id !== active}>
            {t.render(ctx)}
          </div>
        ))}
    </section>
  );
}

const LIVE_TEXT: Record<LiveState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  failed: 'Not live',
};

// PROBLEM_SOURCES is fixed at build time, so calling each source's hook in a loop keeps the order.
function ProblemCount({ sources, ctx }: { sources: ProblemSource[]; ctx: IdeContext }) {
  const counts = sources.map((s) => s.useCounts(ctx)).reduce((a, b) => ({ errors: a.errors + b.errors, warnings: a.warnings + b.warnings }), { errors: 0, warnings: 0 });
  return <ProblemsStatus counts={counts} onOpen={() => ctx.runCommand('workbench.showProblems')} />;
}

export function StatusBar({ ctx, live, liveError }: { ctx: IdeContext; live: LiveState; liveError: string | null }) {
  const side = (align: 'left' | 'right') =>
    STATUS_ITEMS.filter((i) => i.align === align).map((i) => (
      <span key={i.id} className="status-slot" data-status={i.id}>
        {i.render(ctx)}
      </span>
    ));
  return (
    <footer className="ide-status" aria-label="Status bar">
      <div className="ide-status-side">
        {side('left')}
        <span className={`status-item status-live status-live-${live}`} title={liveError ?? 'Changes from the agent, terminals and teammates appear live'} data-testid="live-state">
          {LIVE_TEXT[live]}
          {liveError ? `: ${liveError}` : ''}
        </span>
      </div>
      <div className="ide-status-side">
        {PROBLEM_SOURCES.length ? <ProblemCount sources={PROBLEM_SOURCES} ctx={ctx} /> : null}
        {side('right')}
      </div>
    </footer>
  );
}
