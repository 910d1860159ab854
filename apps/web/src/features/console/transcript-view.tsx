'use client';

import Link from 'next/link';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Session as AgentSession } from '@h/contracts';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';
import { DiffCard } from './diff-card';
import { MarkdownView } from './markdown-view';
import { DelegationCard } from './delegation-card';
import { ToolCallRow } from './tool-call-row';
import { undoableChanges, type ToolItem, type TranscriptItem, type Turn } from './transcript-state';
import { ForkButton, RevertRunButton } from './turn-actions';
import { useOptionalIde } from '../ide/ide-context';

/** What members may do from the transcript; absent (viewers), the cards and messages are read-only. */
export interface TranscriptActions {
  sessionId: string;
  canDecide: boolean;
  /** Runs still going cannot be reverted or forked from (their files are still changing). */
  busy: boolean;
  onForked: (session: AgentSession) => void;
}

// Within this many pixels of the bottom the view follows new output; further up, the user is
// reading and the view stays put.
const STICK_PX = 48;

function AssistantMessage({ item }: { item: Extract<TranscriptItem, { kind: 'assistant' }> }) {
  return (
    <div className="msg msg-assistant" data-streaming={item.streaming ? 'true' : undefined}>
      {item.reasoning ? (
        <details className="thinking">
          <summary>{item.streaming && !item.content ? 'Thinking…' : 'Thinking'}</summary>
          <p className="thinking-text">{item.reasoning}</p>
        </details>
      ) : null}
      {item.content ? <MarkdownView source={item.content} /> : null}
    </div>
  );
}

/** How a run ended; a failure mended in the settings links there (in the IDE, which knows the workspace). */
function RunEnd({ item }: { item: Extract<TranscriptItem, { kind: 'end' }> }) {
  const workspaceId = useOptionalIde()?.workspaceId;
  return (
    <p className={`run-end run-end-${item.status}`} data-run-end={item.status}>
      {item.text}
      {item.fixIn && workspaceId ? (
        <>
          {' '}
          <Link href={`/workspaces/${workspaceId}/settings${item.fixIn === 'settings' ? '' : `#${SETTINGS_SECTIONS[item.fixIn].id}`}`}>Open Settings</Link>
        </>
      ) : null}
    </p>
  );
}

function renderItems(items: TranscriptItem[], actions: TranscriptActions | null): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item.kind === 'tool') {
      // Consecutive calls form one list.
      const group: ToolItem[] = [];
      for (; i < items.length && items[i].kind === 'tool'; i++) group.push(items[i] as ToolItem);
      i--;
      out.push(
        <ul key={group[0].key} className="tool-list" aria-label="Tool calls">
          {group.map((t) => (
            <ToolCallRow key={t.key} item={t} />
          ))}
        </ul>,
      );
      continue;
    }
    switch (item.kind) {
      case 'user':
        out.push(
          <div key={item.key} className="msg msg-user" data-seq={item.seq}>
            <span className="visually-hidden">You: </span>
            {item.content}
            {actions?.canDecide && !actions.busy ? <ForkButton sessionId={actions.sessionId} seq={item.seq} onForked={actions.onForked} /> : null}
          </div>,
        );
        break;
      case 'change':
        out.push(<DiffCard key={item.key} item={item} canDecide={actions?.canDecide ?? false} />);
        break;
      case 'delegation':
        out.push(<DelegationCard key={item.key} item={item} />);
        break;
      case 'assistant':
        out.push(<AssistantMessage key={item.key} item={item} />);
        break;
      case 'summary':
        out.push(
          <section key={item.key} className="summary-card" aria-label="Summary">
            <h3 className="summary-title">Summary</h3>
            <MarkdownView source={item.summary} />
          </section>,
        );
        break;
      case 'notice':
        out.push(
          <p key={item.key} className={`notice notice-${item.tone}`}>
            {item.text}
          </p>,
        );
        break;
      case 'end':
        out.push(<RunEnd key={item.key} item={item} />);
        break;
    }
  }
  return out;
}

export function TranscriptView({ turns, loading, actions = null }: { turns: Turn[]; loading: boolean; actions?: TranscriptActions | null }) {
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [showJump, setShowJump] = useState(false);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (stick.current) setShowJump(false);
  };

  // After every render: follow the output if the user was at the bottom, else offer a jump.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else if (el.scrollHeight - el.scrollTop - el.clientHeight >= STICK_PX) setShowJump(true);
  }, [turns]);

  useEffect(() => {
    // Opening a tool result changes the height without new turns; keep the bottom in view then too.
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, []);

  const jump = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = true;
    el.scrollTop = el.scrollHeight;
    setShowJump(false);
  };

  return (
    <div className="transcript-wrap">
      <div ref={scroller} className="transcript" onScroll={onScroll} role="region" aria-label="Transcript" aria-busy={loading} tabIndex={0}>
        <div className="transcript-inner">
          {turns.length === 0 ? (
            <p className="empty">{loading ? 'Loading the transcript…' : 'No messages yet. Describe a task below to start the agent.'}</p>
          ) : (
            turns.map((turn) => (
              <div key={turn.runId ?? `t${turn.firstSeq}`} className="turn" data-run-id={turn.runId ?? undefined}>
                {renderItems(turn.items, actions)}
                {turn.runId && actions?.canDecide && !actions.busy && undoableChanges(turn).length > 0 ? (
                  <RevertRunButton runId={turn.runId} count={undoableChanges(turn).length} />
                ) : null}
              </div>
            ))
          )}
        </div>
      </div>
      {showJump ? (
        <button type="button" className="button button-secondary button-small jump-latest" onClick={jump}>
          Jump to latest ↓
        </button>
      ) : null}
    </div>
  );
}
