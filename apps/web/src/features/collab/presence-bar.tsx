'use client';

import type { PresenceMember } from '@h/contracts';
import { formatDateTime } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { colorOf, initialsOf } from './avatar-colors';
import { usePresence } from './use-presence';
import './collab.css';

function describe(m: PresenceMember, you: boolean): string {
  const who = you ? `${m.name} (you)` : m.name;
  const where = m.file ? `has ${m.file} open` : 'has no file open';
  const tabs = m.clients > 1 ? ` in ${m.clients} tabs` : '';
  return `${who} ${where}${tabs}`;
}

/** One person: initials in their colour, the file they have open on hover or focus. */
export function PresenceAvatar({ member, you = false }: { member: PresenceMember; you?: boolean }) {
  const tipId = `presence-tip-${member.userId}`;
  return (
    <li className="presence-avatar" data-user-id={member.userId} data-file={member.file ?? ''} tabIndex={0} aria-describedby={tipId} aria-label={member.name}>
      <span className="presence-initials" style={{ background: colorOf(member.userId) }} aria-hidden="true">
        {initialsOf(member.name)}
      </span>
      <span role="tooltip" id={tipId} className="presence-tip">
        {describe(member, you)}
        <span className="muted small"> · here since {formatDateTime(member.since)}</span>
      </span>
    </li>
  );
}

/**
 * Who is in this workspace now (you first), with the file each has open; `activeFile` as in
 * usePresence. `compact`: small avatars with the tooltip above, for the IDE's status bar.
 */
export function PresenceBar({ workspaceId, activeFile, compact = false }: { workspaceId: string; activeFile: string | null | undefined; compact?: boolean }) {
  const presence = usePresence(workspaceId, activeFile);
  const selfId = useSession().me.user.id;
  const members = [...presence.members].sort((a, b) => Number(b.userId === selfId) - Number(a.userId === selfId));
  const label = presence.others.length ? `${presence.others.length} other ${presence.others.length === 1 ? 'person' : 'people'} here` : 'Only you here';
  return (
    <div className={`presence-bar${compact ? ' presence-bar-compact' : ''}`} role="group" aria-label="People in this workspace" data-connection={presence.connection}>
      <ul className="presence-list">
        {members.map((m) => (
          <PresenceAvatar key={m.userId} member={m} you={m.userId === selfId} />
        ))}
      </ul>
      <span className="muted small presence-summary" aria-live="polite">
        {presence.connection === 'failed' ? (presence.error ?? 'Presence is unavailable.') : presence.connection === 'live' ? label : 'Connecting…'}
      </span>
    </div>
  );
}
