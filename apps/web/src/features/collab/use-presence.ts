'use client';

import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { PresenceMember } from '@h/contracts';
import { useSession } from '../../lib/session-context';
import { acquirePresence, announceFile, emptyPresence, releasePresence, subscribePresence, type PresenceSnapshot } from './presence-store';

type Store = ReturnType<typeof acquirePresence>;

/**
 * Who is in the workspace now and which file each has open, live. `activeFile` is the file this
 * tab shows (null: none); it is announced to the others as it changes (undefined: this caller does
 * not know, another one on the page says). Several calls on one page share one connection.
 */
export function usePresence(workspaceId: string, activeFile: string | null | undefined): PresenceSnapshot & { others: PresenceMember[] } {
  const [store, setStore] = useState<Store | null>(null);

  useEffect(() => {
    const s = acquirePresence(workspaceId);
    setStore(s);
    return () => releasePresence(workspaceId, s);
  }, [workspaceId]);

  useEffect(() => {
    if (store && activeFile !== undefined) announceFile(workspaceId, store, activeFile);
  }, [store, workspaceId, activeFile]);

  const subscribe = useCallback((listener: () => void) => (store ? subscribePresence(store, listener) : () => undefined), [store]);
  const snapshot = useSyncExternalStore(subscribe, () => store?.snapshot ?? emptyPresence(), emptyPresence);
  const selfId = useSession().me.user.id;
  return { ...snapshot, others: snapshot.members.filter((m) => m.userId !== selfId) };
}

/** The people (other than you) who have `path` open. */
export function membersOnFile(members: readonly PresenceMember[], path: string): PresenceMember[] {
  return members.filter((m) => m.file === path);
}
