'use client';

import { createContext, useContext } from 'react';
import type { TeamRole, UserPreferences, WorkspaceResponse } from '@h/contracts';
import type { OutputLog } from './output-log';
import type { FileTreeApi } from './use-file-tree';

// The shell's internal state shared with its own views (explorer, settings, status bar). Other
// features use only the public IdeContext (panels.tsx); this may change without notice.
export interface Workbench {
  workspace: WorkspaceResponse;
  role: TeamRole | undefined;
  reloadWorkspace(): void;
  output: OutputLog;
  tree: FileTreeApi;
  preferences: UserPreferences;
  savePreferences(patch: Partial<UserPreferences>): Promise<void>;
  /** The explorer moved or renamed an entry: open tabs follow at once (live files may lag). */
  entryMoved(from: string, to: string): void;
  /** The explorer registers its "new file/folder" prompts here so commands can open them. */
  explorerActions: { current: { newFile(): void; newFolder(): void; focus(): void } | null };
  /** The bottom panel's tab on show, or null when the panel is hidden. */
  bottomTab: string | null;
  /** Shows that bottom tab, or hides the panel when it is the one on show (the status bar's toggles). */
  toggleBottom(id: string): void;
}

export const WorkbenchContext = createContext<Workbench | null>(null);

export function useWorkbench(): Workbench {
  const wb = useContext(WorkbenchContext);
  if (!wb) throw new Error('useWorkbench() needs the IDE shell above it');
  return wb;
}

/** What the active editor reports to the status bar. */
export interface EditorStatus {
  line: number;
  column: number;
  selected: number;
  language: string;
  tabSize: number;
  insertSpaces: boolean;
}

export const EditorStatusContext = createContext<EditorStatus | null>(null);

export function useEditorStatus(): EditorStatus | null {
  return useContext(EditorStatusContext);
}
