'use client';

import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Group, Panel, Separator, type Layout, type PanelImperativeHandle } from 'react-resizable-panels';
import type { IdeState, TeamRole, WorkspaceResponse } from '@h/contracts';
import { WorkspaceAgent } from '../console/workspace-agent';
import { CloseDirtyDialog } from './close-dirty-dialog';
import { isDirty, type FileTab } from './editor-tabs-state';
import { EditorArea, type EditorHandle } from './editor-area';
import { ActivityBar, BottomPanel, StatusBar } from './ide-chrome';
import { IdeReactContext, IdeStateReactContext, registerBuiltins } from './ide-context';
import { modelPath } from './monaco-setup';
import { matchesKeybinding } from './keybindings';
import { OutputLog } from './output-log';
import { BOTTOM_TABS, COMMANDS, SIDE_VIEWS, type IdeContext } from './panels';
import { QuickOpen, type Picker } from './quick-open';
import { useEditorFiles } from './use-editor-files';
import { useFileTree } from './use-file-tree';
import { usePreferences, useServerIdeState } from './use-ide-state';
import { useLiveFiles } from './use-live-files';
import { useLspBridge } from '../diagnostics/use-lsp-bridge';
import { EditorStatusContext, WorkbenchContext, type EditorStatus, type Workbench } from './workbench';
import { graphFilesChanged } from '../graph/graph-status-item';
import './ide.css';

const MAIN = 'ide-main';
const CENTER = 'ide-center';

export function IdeShell(props: { workspace: WorkspaceResponse; role: TeamRole | undefined; canWrite: boolean; reloadWorkspace: () => void }) {
  const output = useMemo(() => new OutputLog(), []);
  const ideState = useServerIdeState(props.workspace.id, output);
  if (!ideState.initial) return <p className="muted ide-pad" aria-live="polite">Opening the IDE…</p>;
  return <Workspace {...props} output={output} initial={ideState.initial} update={ideState.update} />;
}

function Workspace({
  workspace,
  role,
  canWrite,
  reloadWorkspace,
  output,
  initial,
  update,
}: {
  workspace: WorkspaceResponse;
  role: TeamRole | undefined;
  canWrite: boolean;
  reloadWorkspace: () => void;
  output: OutputLog;
  initial: IdeState;
  update: (patch: Partial<IdeState>) => void;
}) {
  const workspaceId = workspace.id;
  const prefs = usePreferences(output);
  const saveExpanded = useCallback((dirs: string[]) => update({ expandedDirs: dirs }), [update]);
  const tree = useFileTree(workspaceId, strings(initial.expandedDirs), output, saveExpanded);
  const editorHandle = useRef<EditorHandle>({ editor: null, monaco: null });
  const liveBuffer = useCallback((path: string) => {
    const { monaco } = editorHandle.current;
    return monaco?.editor.getModel(monaco.Uri.parse(modelPath(path)))?.getValue() ?? null;
  }, []);
  const files = useEditorFiles(workspaceId, { tabs: strings(initial.openTabs), active: typeof initial.activeTab === 'string' ? initial.activeTab : null }, output, liveBuffer);
  const live = useLiveFiles(workspaceId, (event) => {
    tree.applyChanges(event);
    files.applyChanges(event);
    graphFilesChanged(workspaceId);
  });
  const [editorStatus, setEditorStatus] = useState<EditorStatus | null>(null);
  const explorerActions = useRef<Workbench['explorerActions']['current']>(null);
  const [picker, setPicker] = useState<Picker>(null);
  const [closing, setClosing] = useState<FileTab | null>(null);

  const known = (id: unknown, list: { id: string }[]) => (typeof id === 'string' && list.some((v) => v.id === id) ? id : null);
  const [sideView, setSideView] = useState<string | null>(initial.sideView === null ? null : (known(initial.sideView, SIDE_VIEWS) ?? 'explorer'));
  const [bottomTab, setBottomTab] = useState<string | null>(known(initial.bottomTab, BOTTOM_TABS));
  const [lastBottom, setLastBottom] = useState<string>(bottomTab ?? BOTTOM_TABS[0]?.id ?? 'output');
  const [shownBottom, setShownBottom] = useState<IdeContext['shownBottom']>(null);
  const [mountedBottom, setMountedBottom] = useState<ReadonlySet<string>>(() => new Set(bottomTab ? [bottomTab] : []));
  const sidePanel = useRef<PanelImperativeHandle | null>(null);
  const bottomPanel = useRef<PanelImperativeHandle | null>(null);
  const agentPanel = useRef<PanelImperativeHandle | null>(null);

  // Open tabs and the active one go to the ide-state whenever they change.
  const tabsKey = JSON.stringify([files.state.tabs.filter((t) => t.kind === 'file').map((t) => (t as FileTab).path), files.active?.path ?? null]);
  const firstTabs = useRef(true);
  useEffect(() => {
    if (firstTabs.current) return void (firstTabs.current = false);
    const [openTabs, activeTab] = JSON.parse(tabsKey) as [string[], string | null];
    update({ openTabs, activeTab });
  }, [tabsKey, update]);

  const showSide = useCallback(
    (id: string | null) => {
      setSideView(id);
      update({ sideView: id });
      if (!id) sidePanel.current?.collapse();
      else if (sidePanel.current?.isCollapsed()) sidePanel.current.expand();
    },
    [update],
  );
  const showBottom = useCallback(
    (id: string | null) => {
      setBottomTab(id);
      update({ bottomTab: id });
      if (id) {
        setLastBottom(id);
        setShownBottom((prev) => ({ tab: id, count: (prev?.count ?? 0) + 1 }));
        setMountedBottom((m) => (m.has(id) ? m : new Set([...m, id])));
        if (bottomPanel.current?.isCollapsed()) bottomPanel.current.expand();
      } else bottomPanel.current?.collapse();
    },
    [update],
  );
  /** Shows that bottom tab, or hides the panel when it is the one on show (Ctrl/⌘+`, the status bar's toggles). */
  const toggleBottom = useCallback((id: string) => showBottom(bottomTab === id ? null : id), [showBottom, bottomTab]);

  // The stored layout may say a pane is open that the stored views say is hidden (or the reverse).
  useEffect(() => {
    if (!sideView) sidePanel.current?.collapse();
    if (!bottomTab) bottomPanel.current?.collapse();
    // Only on mount: later changes go through showSide/showBottom.
  }, []);

  const ctxRef = useRef<IdeContext | null>(null);
  const openFile = useCallback(
    (path: string, opts?: { line?: number; column?: number }) => {
      files.open(path, opts?.line, opts?.column);
      tree.reveal(path);
    },
    [files, tree],
  );
  const ctx = useMemo<IdeContext>(
    () => ({
      workspaceId,
      canWrite,
      activeFile: files.active?.path ?? null,
      openFile,
      openDiff: (input) => files.openDiff(input),
      runCommand: (id) => {
        const command = COMMANDS.find((c) => c.id === id);
        if (command && ctxRef.current) command.run(ctxRef.current);
      },
      shownBottom,
    }),
    [workspaceId, canWrite, files, openFile, shownBottom],
  );
  ctxRef.current = ctx;
  useLspBridge(workspaceId, canWrite, openFile);

  const requestClose = useCallback(
    (id: string) => {
      const tab = files.state.tabs.find((t) => t.id === id);
      if (tab && isDirty(tab) && tab.kind === 'file') return setClosing(tab);
      if (tab?.kind === 'file') editorHandle.current.monaco?.editor.getModel(editorHandle.current.monaco.Uri.parse(modelPath(tab.path)))?.dispose();
      files.close(id);
    },
    [files],
  );

  useEffect(
    () =>
      registerBuiltins({
        'editor.save': () => void files.save(),
        'editor.closeTab': () => files.state.active && requestClose(files.state.active),
        'workbench.quickOpen': () => setPicker('files'),
        'workbench.commandPalette': () => setPicker('commands'),
        'workbench.toggleSideBar': () => showSide(sideView ? null : 'explorer'),
        'workbench.togglePanel': () => showBottom(bottomTab ? null : lastBottom),
        'workbench.showBrowser': () => showBottom('browser'),
        'workbench.toggleTerminal': () => toggleBottom('terminals'),
        'workbench.toggleAgent': () => (agentPanel.current?.isCollapsed() ? agentPanel.current.expand() : agentPanel.current?.collapse()),
        'explorer.focus': () => {
          showSide('explorer');
          requestAnimationFrame(() => explorerActions.current?.focus());
        },
        'explorer.newFile': () => {
          showSide('explorer');
          requestAnimationFrame(() => explorerActions.current?.newFile());
        },
        'explorer.newFolder': () => {
          showSide('explorer');
          requestAnimationFrame(() => explorerActions.current?.newFolder());
        },
        'explorer.refresh': () => tree.refresh(),
        'editor.find': () => void editorHandle.current.editor?.getAction('actions.find')?.run(),
        'editor.replace': () => void editorHandle.current.editor?.getAction('editor.action.startFindReplaceAction')?.run(),
        'workbench.showProblems': () => showBottom('problems'),
      }),
    [files, requestClose, showSide, showBottom, toggleBottom, sideView, bottomTab, lastBottom, tree],
  );

  // Keybindings of registered commands, caught before Monaco or the browser (Ctrl+S, Ctrl+P).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const command = COMMANDS.find((c) => c.keybinding && matchesKeybinding(event, c.keybinding));
      if (!command || !ctxRef.current) return;
      event.preventDefault();
      event.stopPropagation();
      command.run(ctxRef.current);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const layouts = useRef<Record<string, Layout>>(initial.layout && typeof initial.layout === 'object' ? initial.layout : {});
  // Only what the user dragged is saved (not the sizes of a first mount or a window resize).
  const saveLayout = (group: string) => (layout: Layout, meta: { isUserInteraction: boolean; requestedLayout?: Layout }) => {
    if (!meta.isUserInteraction) return;
    layouts.current = { ...layouts.current, [group]: meta.requestedLayout ?? layout };
    update({ layout: layouts.current });
  };
  const storedLayout = (group: string): Layout | undefined => {
    const l = layouts.current[group];
    return l && typeof l === 'object' && Object.values(l).every((v) => typeof v === 'number') ? l : undefined;
  };

  const workbench = useMemo<Workbench>(
    () => ({
      workspace,
      role,
      reloadWorkspace,
      output,
      tree,
      preferences: prefs.preferences,
      savePreferences: prefs.save,
      entryMoved: (from, to) => files.dispatch({ type: 'renamed', from, to }),
      explorerActions,
      bottomTab,
      toggleBottom,
    }),
    [workspace, role, reloadWorkspace, output, tree, prefs.preferences, prefs.save, files, bottomTab, toggleBottom],
  );
  const view = SIDE_VIEWS.find((v) => v.id === sideView);
  const stateAccess = useMemo(() => ({ initial, update }), [initial, update]);

  return (
    <IdeReactContext.Provider value={ctx}>
      <IdeStateReactContext.Provider value={stateAccess}>
      <WorkbenchContext.Provider value={workbench}>
        <EditorStatusContext.Provider value={editorStatus}>
          <div className="ide" data-testid="ide">
            <div className="ide-main">
              <ActivityBar views={SIDE_VIEWS} active={sideView} onSelect={(id) => showSide(sideView === id ? null : id)} />
              <Group id={MAIN} orientation="horizontal" className="ide-group" defaultLayout={storedLayout(MAIN)} onLayoutChanged={saveLayout(MAIN)}>
                <Panel
                  id="side"
                  panelRef={sidePanel}
                  collapsible
                  minSize={160}
                  defaultSize="20"
                  className="ide-pane"
                  onResize={(size) => size.asPercentage === 0 && sideView !== null && setSideView(null)}
                >
                  {view ? <aside aria-label={view.title} className="ide-side">{view.render(ctx)}</aside> : null}
                </Panel>
                <Separator className="ide-sep ide-sep-v" aria-label="Resize the side bar" />
                <Panel id="center" minSize="25" className="ide-pane">
                  <Group id={CENTER} orientation="vertical" className="ide-group" defaultLayout={storedLayout(CENTER)} onLayoutChanged={saveLayout(CENTER)}>
                    <Panel id="editor" minSize="15" className="ide-pane">
                      <EditorArea files={files} canWrite={canWrite} preferences={prefs.preferences} onStatus={setEditorStatus} handle={editorHandle} onCloseRequest={requestClose} />
                    </Panel>
                    <Separator className="ide-sep ide-sep-h" aria-label="Resize the panel" />
                    <Panel id="bottom" panelRef={bottomPanel} collapsible minSize={80} defaultSize="28" className="ide-pane" onResize={(size) => size.asPercentage === 0 && bottomTab !== null && setBottomTab(null)}>
                      {bottomTab ? <BottomPanel tabs={BOTTOM_TABS} active={bottomTab} mounted={mountedBottom} ctx={ctx} onSelect={showBottom} onHide={() => showBottom(null)} /> : null}
                    </Panel>
                  </Group>
                </Panel>
                <Separator className="ide-sep ide-sep-v" aria-label="Resize the agent console" />
                <Panel id="agent" panelRef={agentPanel} collapsible minSize={280} defaultSize="32" className="ide-pane">
                  <aside className="ide-agent" aria-label="Agent console">
                    <Suspense fallback={<p className="muted ide-pad">Loading sessions…</p>}>
                      <WorkspaceAgent workspaceId={workspaceId} canWrite={canWrite} />
                    </Suspense>
                  </aside>
                </Panel>
              </Group>
            </div>
            <StatusBar ctx={ctx} live={live.state} liveError={live.error} />
            {picker ? (
              <QuickOpen mode={picker} workspaceId={workspaceId} commands={COMMANDS} onOpenFile={openFile} onRun={(id) => ctx.runCommand(id)} onClose={() => setPicker(null)} />
            ) : null}
            {closing ? (
              <CloseDirtyDialog
                path={closing.path}
                canWrite={canWrite}
                onSave={async () => {
                  const saved = await files.save(closing.path);
                  setClosing(null);
                  // A conflict or a failure keeps the tab open with the compare or the error.
                  if (saved) files.close(closing.id);
                }}
                onDiscard={() => {
                  setClosing(null);
                  editorHandle.current.monaco?.editor.getModel(editorHandle.current.monaco.Uri.parse(modelPath(closing.path)))?.dispose();
                  files.close(closing.id);
                }}
                onCancel={() => setClosing(null)}
              />
            ) : null}
          </div>
        </EditorStatusContext.Provider>
      </WorkbenchContext.Provider>
      </IdeStateReactContext.Provider>
    </IdeReactContext.Provider>
  );
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
