'use client';

import { useEffect, useMemo, useState } from 'react';
import { api } from '../../lib/api-client';
import type { Session as AgentSession, Run } from '@h/contracts';
import { Composer } from './composer';
import { PermissionCard } from './permission-card';
import { MODE_INFO } from './permission-modes';
import { RunStatusLine } from './run-status-line';
import { StepPlanPanel } from './step-plan-panel';
import { TodosPanel } from './todos-panel';
import { TranscriptView } from './transcript-view';
import { UsagePanel } from './usage-panel';
import { visibleTurns } from './transcript-state';
import { useSessionStream } from './use-session-stream';

const POSITION_POLL_MS = 2000;


export function SessionConsole({
  session,
  canWrite,
  onActivity,
  onForked,
}: {
  session: AgentSession;
  canWrite: boolean;
  onActivity: () => void;
  /** A member forked this session: show the new one. Without it the console offers no fork. */
  onForked?: (session: AgentSession) => void;
}) {
  const { state, connection, error } = useSessionStream(session.id);
  const [position, setPosition] = useState<{ runId: string; position: number | null } | null>(null);
  const turns = useMemo(() => visibleTurns(state), [state]);

  // The run the status line is about: one in progress if any, else the newest.
  const runIds = Object.keys(state.runs);
  const activeRunId =
    runIds.find((id) => ['running', 'waiting_permission', 'waiting_children'].includes(state.runs[id].status)) ??
    runIds.find((id) => state.runs[id].status === 'queued') ??
    null;
  const shownRunId = activeRunId ?? state.latestRunId;
  const shown = shownRunId ? state.runs[shownRunId] : null;
  const queuedRunId = shown?.status === 'queued' ? shownRunId : null;

  // A queued run's place in the team queue is not in the log: ask the api while it waits.
  useEffect(() => {
    if (!queuedRunId) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const run = await api.get<Run>(`/api/v1/runs/${encodeURIComponent(queuedRunId)}`);
        if (!stop) setPosition({ runId: run.id, position: run.position });
        if (stop || run.status !== 'queued') return;
      } catch {
        /* the status line keeps the last known position */
      }
      if (!stop) timer = setTimeout(poll, POSITION_POLL_MS);
    };
    void poll();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [queuedRunId]);

  // The sessions list shows each session's run status and its title (set by the first message).
  const shownStatus = shown?.status ?? null;
  useEffect(() => {
    if (shownStatus) onActivity();
  }, [shownStatus, shownRunId, onActivity]);

  return (
    <section className="console" aria-labelledby="console-title" data-session-id={session.id}>
      <header className="console-header">
        <div className="console-heading">
          <h2 id="console-title">{session.title}</h2>
          <p className="console-meta muted small">
            <span>{session.model}</span>
            {/* A team provider's model has no thinking toggle: its server decides. */}
            {session.providerId ? <span>team provider</span> : <span>{session.thinking ? 'thinking on' : 'thinking off'}</span>}
            <span>{MODE_INFO[session.permissionMode]?.short ?? session.permissionMode}</span>
            {session.stepMode ? <span>step by step</span> : null}
          </p>
        </div>
        <RunStatusLine status={shownStatus} position={position?.runId === shownRunId ? position.position : null} error={shown?.error ?? null} usage={state.usage} context={state.context} />
      </header>
      {connection === 'reconnecting' ? (
        <p className="connection-banner" role="status">
          Connection lost, reconnecting…
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="console-body">
        <div className="console-main">
          <TranscriptView
            turns={turns}
            loading={connection === 'loading'}
            actions={{ sessionId: session.id, canDecide: canWrite, busy: activeRunId !== null, onForked: onForked ?? (() => undefined) }}
          />
          {state.pending.length ? (
            <div className="permission-stack" aria-label="Waiting for approval">
              {state.pending.map((p) => (
                <PermissionCard key={p.permissionId} permission={p} canDecide={canWrite} />
              ))}
            </div>
          ) : null}
          <Composer
            key={session.id}
            sessionId={session.id}
            canWrite={canWrite}
            activeRunId={activeRunId}
            stepModeDefault={session.engine === 'h' ? session.stepMode : null}
            onPosted={(run) => run.status === 'queued' && setPosition({ runId: run.id, position: run.position })}
          />
        </div>
        <aside className="console-side">
          {/* A step-by-step run's plan is the locked one; its planning write_todos list would only repeat it. */}
          {state.stepPlan ? <StepPlanPanel plan={state.stepPlan} /> : null}
          {state.stepPlan && state.stepPlan.runId === state.todosRunId ? null : <TodosPanel todos={state.todos} />}
          <UsagePanel usage={state.usage} context={state.context} />
        </aside>
      </div>
    </section>
  );
}
