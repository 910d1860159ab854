import type { PresenceMember, PresenceState } from '@h/contracts';
import type { PresenceEntry } from '@h/db';

/**
 * One member per person from their sockets' entries: the file of their most recently active
 * client, the join time of their earliest one, and how many there are.
 */
export function presenceState(workspaceId: string, version: number, entries: readonly PresenceEntry[]): PresenceState {
  const byUser = new Map<string, PresenceEntry[]>();
  for (const e of entries) byUser.set(e.userId, [...(byUser.get(e.userId) ?? []), e]);
  const members: PresenceMember[] = [...byUser.values()].map((mine) => {
    const latest = mine.reduce((a, b) => (b.activeAt > a.activeAt ? b : a));
    const since = Math.min(...mine.map((e) => e.joinedAt));
    return { userId: latest.userId, name: latest.name, file: latest.file, since: new Date(since).toISOString(), clients: mine.length };
  });
  members.sort((a, b) => a.since.localeCompare(b.since) || a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
  return { workspaceId, version, members };
}
