'use client';

import { useEffect, useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button';
import { ListState } from '../../components/data-table';
import { FormError } from '../../components/form-error';
import { api } from '../../lib/api-client';
import type { ListResponse, MemoryCategory, MemoryEntry, MemoryRevisionEntry, MemoryScope, TeamRole } from '@h/contracts';
import { MEMORY_CATEGORIES, MEMORY_LIMITS } from '@h/contracts/memory';
import { formatDateTime } from '../../lib/format';
import { canWrite } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';

const SCOPE_LABELS: Record<MemoryScope, string> = { user: 'You (every workspace)', project: 'This workspace' };

// What the agent remembers (libs/memory): your own user memory, which follows you across the
// team's workspaces and nobody else sees, and this workspace's project memory. Everyone reads;
// members and up add, edit and forget. Each entry keeps its history: nothing overwritten is lost.
export function MemorySection({ workspaceId, role }: { workspaceId: string; role: TeamRole }) {
  const base = `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/memories`;
  const [scope, setScope] = useState<'' | MemoryScope>('');
  const [search, setSearch] = useState('');
  const query = new URLSearchParams({ ...(scope ? { scope } : {}), ...(search.trim() ? { q: search.trim() } : {}) }).toString();
  const list = useApiQuery<ListResponse<MemoryEntry>>(query ? `${base}?${query}` : base);
  const writable = canWrite(role);
  return (
    <section className="panel" aria-labelledby={SETTINGS_SECTIONS.memory.id}>
      <h2 id={SETTINGS_SECTIONS.memory.id}>{SETTINGS_SECTIONS.memory.title}</h2>
      <p className="muted section-intro">
        What the agent remembers between sessions: about you (only you see it, in every workspace of the team) and about this workspace (its members see it). The entries that fit a message are told to the agent at the start of each run.
        {writable ? '' : ' Members and up change them.'}
      </p>
      <div className="form-row">
        <label htmlFor="memory-scope">Show</label>
        <select id="memory-scope" value={scope} onChange={(e) => setScope(e.target.value as '' | MemoryScope)}>
          <option value="">All</option>
          <option value="user">{SCOPE_LABELS.user}</option>
          <option value="project">{SCOPE_LABELS.project}</option>
        </select>
        <label htmlFor="memory-search">Search</label>
        <input id="memory-search" type="search" maxLength={200} value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <ListState query={list} loading="Loading memory…" empty="Nothing remembered yet." />
      {list.data?.items.map((m) => <MemoryCard key={m.id} memory={m} path={`${base}/${encodeURIComponent(m.id)}`} writable={writable} onChanged={() => list.reload()} />)}
      {writable ? <AddMemory base={base} onAdded={() => list.reload()} /> : null}
    </section>
  );
}

function AddMemory({ base, onAdded }: { base: string; onAdded: () => void }) {
  const [scope, setScope] = useState<MemoryScope>('project');
  const [key, setKey] = useState('');
  const [content, setContent] = useState('');
  const [category, setCategory] = useState<MemoryCategory>('general');
  const add = useAction();
  return (
    <details className="mcp-add">
      <summary>Remember something</summary>
      <form
        aria-label="Remember something"
        onSubmit={(e) => {
          e.preventDefault();
          void add.run(async () => {
            await api.post<MemoryEntry>(base, { scope, key, content, category });
            setKey('');
            setContent('');
            onAdded();
          });
        }}
      >
        <label htmlFor="new-memory-scope">Scope</label>
        <select id="new-memory-scope" value={scope} onChange={(e) => setScope(e.target.value as MemoryScope)}>
          <option value="project">{SCOPE_LABELS.project}</option>
          <option value="user">{SCOPE_LABELS.user}</option>
        </select>
        <label htmlFor="new-memory-key">Key</label>
        <input id="new-memory-key" required maxLength={MEMORY_LIMITS.keyChars} value={key} onChange={(e) => setKey(e.target.value)} />
        <label htmlFor="new-memory-content">Value</label>
        <textarea id="new-memory-content" required maxLength={MEMORY_LIMITS.contentChars} value={content} onChange={(e) => setContent(e.target.value)} />
        <label htmlFor="new-memory-category">Category</label>
        <select id="new-memory-category" value={category} onChange={(e) => setCategory(e.target.value as MemoryCategory)}>
          {MEMORY_CATEGORIES.map((c) => <option key={c} value={c}>{c}</option>)}
        </select>
        <div className="form-actions">
          <button type="submit" className="button" disabled={add.pending}>Remember</button>
        </div>
        <FormError message={add.error} />
      </form>
    </details>
  );
}

function MemoryCard({ memory, path, writable, onChanged }: { memory: MemoryEntry; path: string; writable: boolean; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [content, setContent] = useState(memory.content);
  const [showHistory, setShowHistory] = useState(false);
  const change = useAction();
  const history = useApiQuery<ListResponse<MemoryRevisionEntry>>(showHistory ? `${path}/history` : null);
  // An open history follows the entry: an edit saved after it was opened (or one that was still on
  // its way when it was opened) shows up without closing and reopening it.
  const reloadHistory = history.reload;
  useEffect(() => {
    if (showHistory) reloadHistory();
  }, [memory.updatedAt]); // only a new version of the entry reloads it
  const headingId = `memory-${memory.id}-key`;
  return (
    <article className="provider-card" data-testid="memory" data-memory-key={memory.key} aria-labelledby={headingId}>
      <h3 id={headingId}>{memory.key}</h3>
      <p className="provider-status">
        <span className="badge">{SCOPE_LABELS[memory.scope]}</span>
        <span className="badge">{memory.category}</span>
        {memory.tags.map((t) => <span key={t} className="badge">#{t}</span>)}
        <span className="muted small">Updated {formatDateTime(memory.updatedAt)}</span>
      </p>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void change.run(async () => {
              await api.patch<MemoryEntry>(path, { content });
              setEditing(false);
              onChanged();
            });
          }}
        >
          <label htmlFor={`memory-${memory.id}-content`}>Value</label>
          <textarea id={`memory-${memory.id}-content`} required maxLength={MEMORY_LIMITS.contentChars} value={content} onChange={(e) => setContent(e.target.value)} />
          <div className="form-actions">
            <button type="submit" className="button" disabled={change.pending}>Save memory</button>
          </div>
        </form>
      ) : (
        <p className="memory-content">{memory.content}</p>
      )}
      <div className="form-actions">
        <button type="button" className="button button-ghost" aria-expanded={showHistory} onClick={() => setShowHistory(!showHistory)}>
          {showHistory ? 'Hide history' : 'History'}
        </button>
        {writable ? (
          <>
            <button type="button" className="button button-ghost" aria-expanded={editing} onClick={() => {
                // The editor opens on the value as it is now (the entry may have changed since the card appeared).
                if (!editing) setContent(memory.content);
                setEditing(!editing);
              }}>
              {editing ? 'Close editor' : 'Edit'}
            </button>
            <ConfirmButton label="Forget" confirmLabel="Confirm forget" pendingLabel="Forgetting…" pending={change.pending} describedBy={headingId} onConfirm={() => void change.run(async () => {
                await api.delete(path);
                onChanged();
              })}
            />
          </>
        ) : null}
      </div>
      <FormError message={change.error} />
      {showHistory ? (
        <ol className="memory-history" aria-label={`History of ${memory.key}`}>
          {history.data?.items.map((r) => (
            <li key={r.id}>
              <span className="badge">{r.change}</span> <span className="muted small">{formatDateTime(r.createdAt)}{r.runId ? ' · by the agent' : ''}</span> {r.content}
            </li>
          ))}
        </ol>
      ) : null}
    </article>
  );
}
