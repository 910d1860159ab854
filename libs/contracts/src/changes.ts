// The agent's file changes as they travel (issue 10 point 7): every write, edit, rename and delete
// a run makes is recorded with its before/after text, shown as a diff card, and can be accepted,
// rejected (restored in the sandbox) or undone with the rest of its run. Zod-free: the browser
// imports the constants.

export const AGENT_CHANGE_KINDS = ['create', 'modify', 'delete', 'rename'] as const;
export type AgentChangeKind = (typeof AGENT_CHANGE_KINDS)[number];

/** `applied` until someone decides; `rejected` and `reverted` mean the earlier content is back. */
export const AGENT_CHANGE_STATUSES = ['applied', 'accepted', 'rejected', 'reverted'] as const;
export type AgentChangeStatus = (typeof AGENT_CHANGE_STATUSES)[number];

/**
 * One side of a change. `content` is null when there is nothing to show: no file on that side
 * (`exists: false`), a directory, binary content, or text over FILE_CHANGE_MAX_BYTES — such a
 * side cannot be restored by a reject and the card says why.
 */
export interface AgentChangeSide {
  exists: boolean;
  content: string | null;
  bytes: number;
  binary: boolean;
  directory: boolean;
  tooLarge: boolean;
}

/** What the `file.changed` event and every list carry (no content). */
export interface AgentChangeSummary {
  id: string;
  runId: string;
  toolCallId: string;
  kind: AgentChangeKind;
  path: string;
  /** The old path of a rename; null otherwise. */
  fromPath: string | null;
  added: number;
  removed: number;
  binary: boolean;
  tooLarge: boolean;
}

export interface AgentChange<TDate = string> extends AgentChangeSummary {
  sessionId: string;
  status: AgentChangeStatus;
  before: AgentChangeSide;
  after: AgentChangeSide;
  decidedById: string | null;
  decidedAt: TDate | null;
  createdAt: TDate;
}

/** What reject and revert answer: the changes whose earlier content is back. */
export interface AgentChangeRestoreResult<TDate = string> {
  items: AgentChange<TDate>[];
}

/** POST /api/v1/sessions/:id/fork */
export interface ForkSessionRequest {
  /** The seq of a message a person wrote: the fork keeps everything before it. */
  atSeq: number;
  /** Put the workspace's files back as they were before that message's run (default true). */
  restoreFiles?: boolean;
}
