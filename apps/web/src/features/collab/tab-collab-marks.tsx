'use client';

import type { ReactNode } from 'react';
import type { PresenceMember } from '@h/contracts';
import { AgentActivityBadge } from './agent-activity-badge';
import type { AgentActivity } from './agent-activity-state';
import { colorOf, initialsOf } from './avatar-colors';
import { useAgentActivity, agentActivityOn } from './use-agent-activity';
import { membersOnFile, usePresence } from './use-presence';
import './collab.css';

/** What an editor tab shows about a file: the agent changing it, and who else has it open. */
export function TabCollabMarks({ activity, people }: { activity: AgentActivity | undefined; people: PresenceMember[] }) {
  if (!activity && !people.length) return null;
  return (
    <span className="tab-collab-marks">
      <AgentActivityBadge activity={activity} />
      {people.map((m) => (
        <span key={m.userId} className="tab-person" style={{ background: colorOf(m.userId) }} title={`${m.name} has this file open`} aria-label={`${m.name} has this file open`} data-user-id={m.userId}>
          {initialsOf(m.name)}
        </span>
      ))}
    </span>
  );
}

/**
 * For an editor's tab strip: one call per strip (the page shares the connections), then
 * `marksFor(path)` per tab.
 */
export function useTabCollabMarks(workspaceId: string, activeFile: string | null | undefined): (path: string) => ReactNode {
  const activity = useAgentActivity(workspaceId);
  const { others } = usePresence(workspaceId, activeFile);
  return (path: string) => <TabCollabMarks activity={agentActivityOn(activity, path)} people={membersOnFile(others, path)} />;
}
