'use client';

import { useMemo } from 'react';
import type { WorkspaceResponse as Workspace } from '@h/contracts';
import { SessionSearchBox } from '../console/session-search-box';

/** The team page's search over the sessions of all its workspaces; a hit opens it in its workspace. */
export function TeamSessionSearch({ teamId, workspaces }: { teamId: string; workspaces: Workspace[] }) {
  const workspaceNames = useMemo(() => new Map(workspaces.map((w) => [w.id, w.name])), [workspaces]);
  const scope = useMemo(() => ({ teamId, workspaceNames }), [teamId, workspaceNames]);
  return (
    <section className="panel" aria-labelledby="team-search-heading">
      <h2 id="team-search-heading">Search sessions</h2>
      <p className="muted section-intro">What was said and done in every workspace of this team: messages, commands, results, summaries.</p>
      <SessionSearchBox scope={scope} />
    </section>
  );
}
