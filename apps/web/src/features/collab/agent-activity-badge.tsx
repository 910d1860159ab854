'use client';

import type { AgentActivity } from './agent-activity-state';
import { useAgentActivity } from './use-agent-activity';
import './collab.css';

/** For an editor tab: shown while the agent is changing (or asking to change) that file. */
export function AgentActivityBadge({ activity }: { activity: AgentActivity | undefined }) {
  if (!activity) return null;
  return (
    <span className="agent-activity" data-agent-path={activity.path} data-session-id={activity.sessionId} title={`The agent is changing ${activity.path}`}>
      Agent editing
    </span>
  );
}

/** The files the agent is changing in this workspace right now, for pages without an editor. */
export function AgentActivityStrip({ workspaceId }: { workspaceId: string }) {
  const activity = useAgentActivity(workspaceId);
  return (
    <div className="agent-activity-strip" role="status" aria-label="Files the agent is changing">
      {activity.length ? <span className="muted small">Agent changing</span> : null}
      {activity.map((a) => (
        <span key={a.path} className="agent-activity" data-agent-path={a.path} data-session-id={a.sessionId}>
          <span className="mono">{a.path}</span>
        </span>
      ))}
    </div>
  );
}
