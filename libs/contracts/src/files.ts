// The file API (REST under /api/v1/workspaces/:id/files) and live file changes over Socket.IO
// (`files.subscribe` -> `files.changed`), typed once for the api and the IDE.
// Zod-free on purpose: the browser may import this file's values. The events are part of the
// socket's typed maps (socket-events.ts).
import type { ErrorBody } from './error-codes';
import type { Ack } from './socket-events';
import type { FileType } from './workspace';

/**
 * An ETag is the SHA-256 of the file's bytes in hex, in double quotes (the HTTP header's form):
 * send it back unchanged as `If-Match`. The same value comes in `files.changed`, so an editor
 * can tell its own save from someone else's.
 */
export type FileEtag = string;

export interface FileEntry {
  /** Relative to the workspace root, '/'-separated. */
  path: string;
  name: string;
  type: FileType;
  size: number;
}

export interface FileTree {
  /** The listed directory ('' for the root). */
  path: string;
  entries: FileEntry[];
  /** The listing stopped at its cap (`limit`, at most FILE_TREE_MAX_ENTRIES). */
  truncated: boolean;
}

export type FileTextEncoding = 'utf8' | 'base64';

/** A file as JSON: UTF-8 text as is; anything else (NUL bytes, invalid UTF-8) as base64. */
export interface FileContent {
  path: string;
  encoding: FileTextEncoding;
  content: string;
  etag: FileEtag;
  size: number;
}

export interface FileWriteResult {
  path: string;
  etag: FileEtag;
  size: number;
  /** No file was there before. */
  created: boolean;
}

/** The 409 answer of a write whose If-Match is not the current ETag: both versions. */
export interface EditConflictBody {
  error: {
    code: 'EDIT_CONFLICT';
    message: string;
    /** What is in the workspace now; null when the file is gone. `content` is left out above the read limit. */
    current: { etag: FileEtag | null; size: number; encoding?: FileTextEncoding; content?: string } | null;
    /** What the caller sent: the ETag it based the change on, and its own content. */
    yours: { baseEtag: FileEtag | null; etag: FileEtag; encoding: FileTextEncoding; content: string };
  };
}

export const FILE_CHANGE_KINDS = ['created', 'changed', 'deleted', 'renamed'] as const;
export type FileChangeKind = (typeof FILE_CHANGE_KINDS)[number];

export interface FileChange {
  path: string;
  kind: FileChangeKind;
  /** For `renamed` (a move through the API): where it was. */
  from?: string;
  type?: FileType;
  /** For files up to 1 MiB: the content's ETag. */
  etag?: FileEtag;
}

export interface FilesChangedEvent {
  workspaceId: string;
  changes: FileChange[];
  /**
   * More changed than one event carries, or changes may have been missed (the sandbox restarted):
   * reload the tree and open files.
   */
  resync?: boolean;
  /**
   * The repository's state changed (HEAD, index or refs: a commit, checkout, stage or fetch, from a
   * terminal or anyone): refresh what shows git status. `.git` itself never appears in `changes`.
   */
  git?: boolean;
}

/** A `files.subscribe` ended on the server's side (access lost); subscribe again if it comes back. */
export interface FilesErrorEvent extends ErrorBody {
  workspaceId: string;
}

/** The acknowledgement of files.subscribe / files.unsubscribe (the socket's one Ack shape). */
export type FilesAck<T> = Ack<T>;

export interface FilesSubscribeRequest {
  workspaceId: string;
}

export interface FilesServerToClientEvents {
  'files.changed': (event: FilesChangedEvent) => void;
  'files.error': (event: FilesErrorEvent) => void;
}

export interface FilesClientToServerEvents {
  /** Viewers may watch; an outsider gets NOT_FOUND. */
  'files.subscribe': (request: FilesSubscribeRequest, ack: (answer: FilesAck<{ workspaceId: string }>) => void) => void;
  'files.unsubscribe': (request: FilesSubscribeRequest, ack: (answer: FilesAck<{ workspaceId: string }>) => void) => void;
}

/** Socket.IO events of live files: room per workspace, changes coalesced for this long. */
export const FILES_CHANGED_COALESCE_MS = 50;
/** Changes in one `files.changed` at most; more become `resync: true`. */
export const FILES_CHANGED_MAX_CHANGES = 1000;
