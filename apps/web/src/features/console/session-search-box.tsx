'use client';

import { useEffect, useState } from 'react';
import { SESSION_SEARCH_LIMITS, type SessionSearchHit, type SessionSearchResponse } from '@h/contracts/session-search';
import { formatDateTime } from '../../lib/format';
import { useApiQuery } from '../../lib/use-api-query';

const DEBOUNCE_MS = 300;

/** The snippet with its matches (between « and », as the server marks them) highlighted. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/«|»/);
  return <span className="session-search-snippet">{parts.map((p, i) => (i % 2 === 1 ? <mark key={i}>{p}</mark> : <span key={i}>{p}</span>))}</span>;
}

/** Where the box searches: one workspace (the IDE), or every workspace of a team (the team page). */
export type SessionSearchScope = { workspaceId: string } | { teamId: string; workspaceNames: ReadonlyMap<string, string> };

function searchPath(scope: SessionSearchScope, query: string): string {
  const base = 'teamId' in scope ? `/api/v1/teams/${encodeURIComponent(scope.teamId)}` : `/api/v1/workspaces/${encodeURIComponent(scope.workspaceId)}`;
  return `${base}/sessions/search?q=${encodeURIComponent(query)}`;
}

/** The link of a hit: the session in its workspace's IDE (the current page when it is that workspace). */
function hitHref(scope: SessionSearchScope, hit: SessionSearchHit): string {
  const session = `?session=${encodeURIComponent(hit.sessionId)}`;
  return 'teamId' in scope ? `/workspaces/${encodeURIComponent(hit.workspaceId)}${session}` : session;
}

/**
 * Full-text search over sessions (GET …/sessions/search): each hit shows the session's title (and
 * its workspace, team-wide), where the words occur and when; choosing one opens the session.
 * `onSelect` handles a plain click in place (the IDE switches sessions); without it the link
 * navigates.
 */
export function SessionSearchBox({ scope, onSelect }: { scope: SessionSearchScope; onSelect?: (id: string) => void }) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const path = query ? searchPath(scope, query) : null;
  const results = useApiQuery<SessionSearchResponse>(path);
  const items = query ? (results.data?.items ?? []) : [];
  return (
    <div className="session-search" role="search">
      <input
        type="search"
        className="input input-small"
        aria-label="Search sessions"
        placeholder="Search sessions"
        maxLength={SESSION_SEARCH_LIMITS.queryMaxChars}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {query && results.error ? <p className="form-error small">{results.error.message}</p> : null}
      {query && results.data && !results.loading && items.length === 0 ? <p className="empty small">No session matches.</p> : null}
      {items.length ? (
        <ul className="session-search-results" aria-label="Search results">
          {items.map((hit) => (
            <li key={hit.sessionId}>
              <a
                href={hitHref(scope, hit)}
                className="session-link"
                data-session-id={hit.sessionId}
                onClick={(event) => {
                  if (!onSelect || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                  event.preventDefault();
                  onSelect(hit.sessionId);
                }}
              >
                <span className="session-title">{hit.title}</span>
                <Snippet text={hit.snippet} />
                <span className="session-meta">
                  {'teamId' in scope ? <span className="mono">{scope.workspaceNames.get(hit.workspaceId) ?? hit.workspaceId}</span> : null}
                  <span>{formatDateTime(hit.ts)}</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {results.data?.partial ? <p className="muted small">The search took too long; these are the matches found in time.</p> : null}
    </div>
  );
}
