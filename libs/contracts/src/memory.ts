// Persistent memory (issue 14, point 1; seed "Persistent Memory"): the wire shapes of the Memory
// settings page and the limits the agent's remember/recall/forget tools and the api share.
// Zod-free: the web imports these values.

/** `user` follows a person across the workspaces of a team; `project` belongs to one workspace. */
export const MEMORY_SCOPES = ['user', 'project'] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

export const MEMORY_CATEGORIES = ['decision', 'preference', 'convention', 'fact', 'pattern', 'general'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

export const MEMORY_LIMITS = {
  keyChars: 120,
  contentChars: 2000,
  tags: 10,
  tagChars: 40,
  /** Live memories one owner (a user in a team, or a workspace) may keep. */
  perOwner: 500,
  /** What a sub-agent is given about the user (seed: getUserProfileContext, ≤ 1,500 characters). */
  profileChars: 1500,
  /** Entries injected into a run (seed: top-K, default 6). */
  topK: 6,
} as const;

/** One live memory, as the settings page lists it. */
export interface MemoryEntry<D = string> {
  id: string;
  scope: MemoryScope;
  key: string;
  content: string;
  category: MemoryCategory;
  tags: string[];
  workspaceId: string | null;
  userId: string | null;
  createdAt: D;
  updatedAt: D;
}

/** One change of a memory: the value it had after the change ('forget': the value it had). */
export interface MemoryRevisionEntry<D = string> {
  id: string;
  change: 'create' | 'update' | 'merge' | 'forget' | 'restore';
  content: string;
  changedById: string | null;
  runId: string | null;
  createdAt: D;
}
