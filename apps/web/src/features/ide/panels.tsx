'use client';

// The IDE's registry: the side views, bottom panel tabs, commands and status bar items the shell
// shows. Other features plug in by appending an entry here (terminals -> BOTTOM_TABS,
// source control -> SIDE_VIEWS, collaboration -> STATUS_ITEMS…); keep additions to one line each
// so parallel branches merge cleanly.
import type { ReactNode } from 'react';
import { runBuiltin } from './ide-context';
import { FilesIcon, GearIcon } from './icons';
import { ExplorerView } from './explorer';
import { OutputView } from './output-log';
import { CursorStatus, IndentStatus, LanguageStatus, PanelToggles } from './status-items';
import { SettingsView } from './settings-view';
import { ScmView } from '../scm/scm-view';
import { SourceControlIcon } from '../scm/scm-icon';
import { ScmBranchStatus } from '../scm/scm-status-item';
import { GraphStatusItem } from '../graph/graph-status-item';
import { TerminalPanel } from '../terminals/terminal-panel';
import { BrowserPanel } from '../browser/browser-panel';
import { AgentActivityStrip } from '../collab/agent-activity-badge';
import { PresenceBar } from '../collab/presence-bar';
import { ProblemsPanel, ProblemsTabTitle } from '../diagnostics/problems-panel';
import { problemCounts } from '../diagnostics/diagnostics-state';
import { useDiagnostics } from '../diagnostics/use-diagnostics';

export { useIde, useIdeState, useOptionalIde } from './ide-context';

export interface IdeContext {
  workspaceId: string;
  canWrite: boolean;
  activeFile: string | null;
  openFile(path: string, opts?: { line?: number; column?: number }): void;
  openDiff(input: { title: string; path?: string; original: string; modified: string; language?: string }): void;
  runCommand(id: string): void;
  /**
   * The bottom tab a person last asked to show (its tab, a status bar toggle, Ctrl/⌘+`), counted so
   * each asking is new: that tab puts the keyboard in its content (the terminal at its prompt).
   */
  shownBottom: { tab: string; count: number } | null;
}
export interface SideView { id: string; title: string; icon: ReactNode; render(ctx: IdeContext): ReactNode }
/** `renderTitle`: a live tab title (a count); `title` stays its plain name. */
export interface BottomTab { id: string; title: string; renderTitle?(ctx: IdeContext): ReactNode; render(ctx: IdeContext): ReactNode }
export interface IdeCommand { id: string; title: string; keybinding?: string; run(ctx: IdeContext): void }
/** A status bar entry (`branch` comes from Source Control's live git status). */
export interface StatusItem { id: string; align: 'left' | 'right'; render(ctx: IdeContext): ReactNode }
/** A source of problems (diagnostics); the status bar shows the counts only once one is registered. */
export interface ProblemSource { id: string; useCounts(ctx: IdeContext): { errors: number; warnings: number } }

export const SIDE_VIEWS: SideView[] = [
  { id: 'explorer', title: 'Explorer', icon: <FilesIcon />, render: (ctx) => <ExplorerView ctx={ctx} /> },
  { id: 'scm', title: 'Source Control', icon: <SourceControlIcon />, render: (ctx) => <ScmView workspaceId={ctx.workspaceId} canWrite={ctx.canWrite} openDiff={ctx.openDiff} /> },
  { id: 'settings', title: 'Workspace', icon: <GearIcon />, render: (ctx) => <SettingsView ctx={ctx} /> },
];

export const BOTTOM_TABS: BottomTab[] = [
  { id: 'output', title: 'Output', render: () => <OutputView /> },
  { id: 'terminals', title: 'Terminal', render: (ctx) => <TerminalPanel workspaceId={ctx.workspaceId} canWrite={ctx.canWrite} focusRequest={ctx.shownBottom?.tab === 'terminals' ? ctx.shownBottom.count : 0} /> },
  { id: 'problems', title: 'Problems', renderTitle: (ctx) => <ProblemsTabTitle workspaceId={ctx.workspaceId} />, render: (ctx) => <ProblemsPanel ctx={ctx} /> },
  { id: 'browser', title: 'Browser', render: (ctx) => <BrowserPanel workspaceId={ctx.workspaceId} canWrite={ctx.canWrite} /> },
];

export const COMMANDS: IdeCommand[] = [
  { id: 'editor.save', title: 'File: Save', keybinding: 'Mod+S', run: () => runBuiltin('editor.save') },
  { id: 'editor.closeTab', title: 'File: Close Editor', keybinding: 'Mod+Alt+W', run: () => runBuiltin('editor.closeTab') },
  { id: 'workbench.quickOpen', title: 'Go to File…', keybinding: 'Mod+P', run: () => runBuiltin('workbench.quickOpen') },
  { id: 'workbench.commandPalette', title: 'Show All Commands', keybinding: 'Mod+Shift+P', run: () => runBuiltin('workbench.commandPalette') },
  { id: 'workbench.toggleSideBar', title: 'View: Toggle Side Bar', keybinding: 'Mod+B', run: () => runBuiltin('workbench.toggleSideBar') },
  { id: 'workbench.togglePanel', title: 'View: Toggle Bottom Panel', keybinding: 'Mod+J', run: () => runBuiltin('workbench.togglePanel') },
  { id: 'workbench.toggleTerminal', title: 'View: Toggle Terminal', keybinding: 'Mod+`', run: () => runBuiltin('workbench.toggleTerminal') },
  { id: 'workbench.toggleAgent', title: 'View: Toggle Agent Console', keybinding: 'Mod+Alt+A', run: () => runBuiltin('workbench.toggleAgent') },
  { id: 'explorer.focus', title: 'View: Show Explorer', keybinding: 'Mod+Shift+E', run: () => runBuiltin('explorer.focus') },
  { id: 'explorer.newFile', title: 'File: New File…', run: () => runBuiltin('explorer.newFile') },
  { id: 'explorer.newFolder', title: 'File: New Folder…', run: () => runBuiltin('explorer.newFolder') },
  { id: 'explorer.refresh', title: 'Explorer: Refresh', run: () => runBuiltin('explorer.refresh') },
  { id: 'editor.find', title: 'Editor: Find', run: () => runBuiltin('editor.find') },
  { id: 'editor.replace', title: 'Editor: Replace', run: () => runBuiltin('editor.replace') },
  { id: 'workbench.showProblems', title: 'View: Show Problems', keybinding: 'Mod+Shift+M', run: () => runBuiltin('workbench.showProblems') },
  { id: 'browser.show', title: 'View: Show Browser', run: () => runBuiltin('workbench.showBrowser') },
];

export const STATUS_ITEMS: StatusItem[] = [
  { id: 'branch', align: 'left', render: (ctx) => <ScmBranchStatus workspaceId={ctx.workspaceId} /> },
  { id: 'graph', align: 'left', render: (ctx) => <GraphStatusItem workspaceId={ctx.workspaceId} /> },
  { id: 'cursor', align: 'right', render: () => <CursorStatus /> },
  { id: 'indent', align: 'right', render: () => <IndentStatus /> },
  { id: 'language', align: 'right', render: () => <LanguageStatus /> },
  // The bottom panel starts hidden: without these a newcomer finds the terminal only by shortcut.
  { id: 'panel-toggles', align: 'right', render: () => <PanelToggles /> },
  { id: 'presence', align: 'left', render: (ctx) => <PresenceBar workspaceId={ctx.workspaceId} activeFile={ctx.activeFile} compact /> },
  { id: 'agent-activity', align: 'left', render: (ctx) => <AgentActivityStrip workspaceId={ctx.workspaceId} /> },
];

export const PROBLEM_SOURCES: ProblemSource[] = [
  { id: 'lsp', useCounts: (ctx) => problemCounts(useDiagnostics(ctx.workspaceId)) },
];
