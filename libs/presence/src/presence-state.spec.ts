import type { PresenceEntry } from '@h/db';
import { presenceState } from './presence-state';

const entry = (socketId: string, userId: string, file: string | null, joinedAt: number, activeAt: number): PresenceEntry => ({
  socketId, userId, name: `name-${userId}`, file, joinedAt, activeAt, expiresAt: activeAt + 30_000,
});

describe(presenceState.name, () => {
  it('should fold one person\'s tabs into one member with the file of the tab they used last', () => {
    const state = presenceState('ws', 7, [entry('s1', 'u1', 'a.ts', 1000, 5000), entry('s2', 'u1', 'b.ts', 2000, 9000), entry('s3', 'u2', null, 500, 500)]);
    expect(state).toEqual({
      workspaceId: 'ws',
      version: 7,
      members: [
        { userId: 'u2', name: 'name-u2', file: null, since: new Date(500).toISOString(), clients: 1 },
        { userId: 'u1', name: 'name-u1', file: 'b.ts', since: new Date(1000).toISOString(), clients: 2 },
      ],
    });
  });

  it('should answer no members when nobody is there', () => {
    expect(presenceState('ws', 0, []).members).toEqual([]);
  });
});
