'use client';

import { useEffect, useState } from 'react';
import { SESSION_SEARCH_LIMITS, type SessionSearchResponse } from '@h/contracts/session-search';
import { formatDateTime } from '../../lib/format';
import { useApiQuery } from '../../lib/use-api-query';

const DEBOUNCE_MS = 300;

/** The snippet with its matches (between « and », as the server marks them) highlighted. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/«|»/);
  return <span className="session-search-snippet">{parts.map((p, i) => (i % 2 === 1 ? <mark key={i}>{p}</mark> : <span key={i}>{p}</span>))}</span>;
}

/**
 * Full-text search over the workspace's sessions (GET …/sessions/search): each hit shows the
 * session's title, where the words occur and when; choosing one opens the session.
 */
export function SessionSearchBox({ workspaceId, onSelect }: { workspaceId: string; onSelect: (id: string) => void }) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const path = query ? `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/sessions/search?q=${encodeURIComponent(query)}` : null;
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
                href={`?session=${encodeURIComponent(hit.sessionId)}`}
                className="session-link"
                data-session-id={hit.sessionId}
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                  event.preventDefault();
                  onSelect(hit.sessionId);
                }}
              >
                <span className="session-title">{hit.title}</span>
                <Snippet text={hit.snippet} />
                <span className="session-meta">
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
