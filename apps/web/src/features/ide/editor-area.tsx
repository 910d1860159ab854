'use client';

import Editor, { DiffEditor, type OnMount } from '@monaco-editor/react';
import type * as MonacoApi from 'monaco-editor';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import type { UserPreferences } from '@h/contracts';
import { ConflictView } from './conflict-view';
import { fileTabId, isDirty, type DiffTab, type FileTab, type Tab } from './editor-tabs-state';
import { baseName } from './files-client';
import { languageForPath, languageLabel, loadMonaco, modelPath, type Monaco } from './monaco-setup';
import type { EditorFiles } from './use-editor-files';
import type { EditorStatus } from './workbench';
import { useIde } from './ide-context';
import { useTabCollabMarks } from '../collab/tab-collab-marks';

const themeOf = (prefs: UserPreferences) => (prefs.theme === 'dark' ? 'vs-dark' : 'vs');

export interface EditorHandle {
  editor: MonacoApi.editor.IStandaloneCodeEditor | null;
  monaco: Monaco | null;
}

// The editor area: the tab strip, the bars a tab may need (changed in the workspace, deleted,
// read-only), and Monaco for the active tab (one model per file, so undo history survives tab
// switches), a compare view for conflicts and plain diff tabs.
export function EditorArea({
  files,
  canWrite,
  preferences,
  onStatus,
  handle,
  onCloseRequest,
}: {
  files: EditorFiles;
  canWrite: boolean;
  preferences: UserPreferences;
  onStatus: (status: EditorStatus | null) => void;
  handle: MutableRefObject<EditorHandle>;
  onCloseRequest: (id: string) => void;
}) {
  const { state } = files;
  const active = state.tabs.find((t) => t.id === state.active) ?? null;
  const [monaco, setMonaco] = useState<Monaco | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let alive = true;
    setLoadError(null);
    loadMonaco().then(
      (m) => alive && setMonaco(m),
      (err: unknown) => alive && setLoadError(err instanceof Error ? err.message : 'The editor could not be loaded.'),
    );
    return () => {
      alive = false;
    };
  }, [attempt]);

  return (
    <section className="ide-editor" aria-label="Editor">
      <TabStrip tabs={state.tabs} activeId={state.active} onActivate={(id) => files.dispatch({ type: 'activate', id })} onClose={onCloseRequest} />
      {active ? null : <EmptyEditor />}
      {active && loadError ? (
        <div className="ide-pad" role="alert">
          <p className="form-error">The editor could not be loaded ({loadError}). Check the connection to H, then try again.</p>
          <button type="button" className="button button-secondary button-small" onClick={() => setAttempt((a) => a + 1)}>
            Try again
          </button>
        </div>
      ) : null}
      {active && !monaco && !loadError ? <p className="muted ide-pad" aria-live="polite">Loading the editor…</p> : null}
      {!monaco ? null : <>
      {active?.kind === 'file' ? (
        <FileTabBody key={active.id} tab={active} files={files} canWrite={canWrite} preferences={preferences} onStatus={onStatus} handle={handle} monaco={monaco} onMonaco={setMonaco} />
      ) : null}
      {active?.kind === 'diff' ? <DiffTabBody key={active.id} tab={active} preferences={preferences} monaco={monaco} /> : null}
      </>}
    </section>
  );
}

function TabStrip({ tabs, activeId, onActivate, onClose }: { tabs: Tab[]; activeId: string | null; onActivate: (id: string) => void; onClose: (id: string) => void }) {
  const ide = useIde();
  // Who else has each file open, and whether the agent is changing it (features/collab).
  const collabMarks = useTabCollabMarks(ide.workspaceId, undefined);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const i = tabs.findIndex((t) => t.id === activeId);
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const next = tabs[(i + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      if (next) {
        onActivate(next.id);
        document.getElementById(`tab-${next.id}`)?.focus();
      }
    } else if (event.key === 'Delete' && activeId) onClose(activeId);
  };
  if (!tabs.length) return null;
  return (
    <div className="ide-tabs" role="tablist" aria-label="Open editors" onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const dirty = isDirty(tab);
        const title = tab.kind === 'file' ? baseName(tab.path) : tab.title;
        return (
          <div key={tab.id} className={`ide-tab${tab.id === activeId ? ' ide-tab-active' : ''}`} data-testid="editor-tab" data-path={tab.kind === 'file' ? tab.path : undefined}>
            <button
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={tab.id === activeId}
              tabIndex={tab.id === activeId ? 0 : -1}
              title={tab.kind === 'file' ? tab.path : tab.title}
              onClick={() => onActivate(tab.id)}
              onAuxClick={(e) => e.button === 1 && onClose(tab.id)}
            >
              {title}
              {dirty ? (
                <span className="ide-dirty" aria-label="unsaved changes" data-testid="dirty-marker">
                  ●
                </span>
              ) : null}
              {tab.kind === 'file' && tab.disk ? <span className="ide-tab-flag">{tab.disk === 'deleted' ? ' (deleted)' : ' (changed)'}</span> : null}
              {tab.kind === 'file' ? collabMarks(tab.path) : null}
            </button>
            <button type="button" className="ide-tab-close" aria-label={`Close ${title}`} tabIndex={-1} onClick={() => onClose(tab.id)}>
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}

function EmptyEditor() {
  return (
    <div className="ide-empty">
      <p>Open a file from the explorer.</p>
      <dl className="ide-shortcuts">
        <dt>
          <kbd>Ctrl/⌘</kbd> <kbd>P</kbd>
        </dt>
        <dd>Go to file</dd>
        <dt>
          <kbd>Ctrl/⌘</kbd> <kbd>Shift</kbd> <kbd>P</kbd>
        </dt>
        <dd>All commands</dd>
        <dt>
          <kbd>Ctrl/⌘</kbd> <kbd>S</kbd>
        </dt>
        <dd>Save</dd>
        <dt>
          <kbd>Ctrl/⌘</kbd> <kbd>`</kbd>
        </dt>
        <dd>Terminal</dd>
      </dl>
    </div>
  );
}

function FileTabBody({
  tab,
  files,
  canWrite,
  preferences,
  onStatus,
  handle,
  monaco,
  onMonaco,
}: {
  tab: FileTab;
  files: EditorFiles;
  canWrite: boolean;
  preferences: UserPreferences;
  onStatus: (status: EditorStatus | null) => void;
  handle: MutableRefObject<EditorHandle>;
  monaco: Monaco | null;
  onMonaco: (m: Monaco) => void;
}) {
  const editorRef = useRef<MonacoApi.editor.IStandaloneCodeEditor | null>(null);
  // Monaco mounts its editor a render after the tab is ready: a line asked for waits for it.
  const [mounted, setMounted] = useState(false);
  const path = tab.path;
  const { dispatch } = files;

  const report = useCallback(
    (editor: MonacoApi.editor.IStandaloneCodeEditor, m: Monaco) => {
      const model = editor.getModel();
      const pos = editor.getPosition();
      if (!model || !pos) return;
      const sel = editor.getSelection();
      const opts = model.getOptions();
      onStatus({
        line: pos.lineNumber,
        column: pos.column,
        selected: sel ? model.getValueInRange(sel).length : 0,
        language: languageLabel(m, model.getLanguageId()),
        tabSize: opts.tabSize,
        insertSpaces: opts.insertSpaces,
      });
    },
    [onStatus],
  );

  const onMount: OnMount = (editor, m) => {
    editorRef.current = editor;
    // A kept model may hold an older text than the tab (reloaded while another tab was shown).
    if (editor.getValue() !== tab.content) editor.getModel()?.setValue(tab.content);
    handle.current = { editor, monaco: m };
    onMonaco(m);
    editor.onDidChangeCursorSelection(() => report(editor, m));
    editor.onDidChangeModel(() => report(editor, m));
    report(editor, m);
    editor.focus();
    setMounted(true);
  };

  useEffect(
    () => () => {
      handle.current = { editor: null, monaco: handle.current.monaco };
      onStatus(null);
    },
    [handle, onStatus],
  );

  // The buffer was replaced from outside (reload, conflict resolved): the model takes it, as one
  // undoable edit. While the user types, the model leads and the tab only follows (onChange).
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || model.getValue() === tab.content) return;
    editor.executeEdits('workspace', [{ range: model.getFullModelRange(), text: tab.content, forceMoveMarkers: true }]);
    editor.pushUndoStop();
    // Only the revision says the content came from outside; content itself changes on every key.
  }, [tab.rev]);

  // A line asked for by quick open or the console, once the content is there.
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || tab.status !== 'ready' || tab.line === null) return;
    editor.revealLineInCenter(tab.line);
    editor.setPosition({ lineNumber: tab.line, column: tab.column ?? 1 });
    editor.focus();
    dispatch({ type: 'lineShown', path });
  }, [tab.line, tab.column, tab.status, mounted, dispatch, path]);

  if (tab.status === 'loading') return <p className="muted ide-pad" aria-live="polite">Opening {path}…</p>;
  if (tab.status === 'error') {
    return (
      <div className="ide-pad" role="alert">
        <p className="form-error">Could not open {path}: {tab.error}</p>
        <button type="button" className="button button-secondary button-small" onClick={() => void files.reload(path)}>
          Try again
        </button>
      </div>
    );
  }
  if (tab.status === 'binary') return <p className="muted ide-pad">{path} is not UTF-8 text, so it is not shown in the editor.</p>;
  const theme = themeOf(preferences);
  // The compare is shown over the editor, which stays mounted (its model, undo history and
  // pending async work survive; disposing it mid-work upsets Monaco).
  return (
    <>
      {tab.conflict ? (
        <ConflictView
          tab={tab}
          language={monaco ? languageForPath(monaco, path) : 'plaintext'}
          theme={theme}
          canWrite={canWrite}
          onKeepMine={(content) => void files.keepMine(path, content)}
          onTakeTheirs={() => files.takeTheirs(path)}
        />
      ) : (
        <DiskBar tab={tab} files={files} canWrite={canWrite} />
      )}
      {!canWrite && !tab.conflict ? <div className="ide-bar">Viewers can read files but not change them.</div> : null}
      <div className="ide-editor-host" data-testid="monaco-host" data-path={path} hidden={!!tab.conflict}>
        <Editor
          path={modelPath(path)}
          defaultValue={tab.content}
          theme={theme}
          loading={<p className="muted ide-pad">Loading the editor…</p>}
          options={{
            readOnly: !canWrite,
            fontSize: preferences.editorFontSize,
            tabSize: preferences.tabSize,
            wordWrap: preferences.wordWrap,
            automaticLayout: true,
            minimap: { enabled: false },
            scrollBeyondLastLine: false,
          }}
          keepCurrentModel
          onMount={onMount}
          onChange={(value) => dispatch({ type: 'edit', path, content: value ?? '' })}
        />
      </div>
    </>
  );
}

function DiskBar({ tab, files, canWrite }: { tab: FileTab; files: EditorFiles; canWrite: boolean }) {
  if (!tab.disk) return null;
  if (tab.disk === 'deleted') {
    return (
      <div className="ide-bar ide-bar-warn" role="status" data-testid="disk-bar">
        <span>{tab.path} was deleted in the workspace.{canWrite ? ' Save to create it again, or close the tab.' : ''}</span>
        <span className="ide-bar-actions">
          <button type="button" className="button button-secondary button-small" onClick={() => files.close(fileTabId(tab.path))}>
            Close tab
          </button>
        </span>
      </div>
    );
  }
  return (
    <div className="ide-bar ide-bar-warn" role="status" data-testid="disk-bar">
      <span>{tab.path} changed in the workspace while you have unsaved edits.</span>
      <span className="ide-bar-actions">
        <button type="button" className="button button-primary button-small" onClick={() => void files.compare(tab.path)}>
          Compare
        </button>
        {canWrite ? (
          <button type="button" className="button button-secondary button-small" onClick={() => void files.overwrite(tab.path)}>
            Overwrite with mine
          </button>
        ) : null}
        <button type="button" className="button button-secondary button-small" onClick={() => void files.reload(tab.path)}>
          Reload (discard mine)
        </button>
      </span>
    </div>
  );
}

function DiffTabBody({ tab, preferences, monaco }: { tab: DiffTab; preferences: UserPreferences; monaco: Monaco | null }) {
  const diff = useRef<MonacoApi.editor.IStandaloneDiffEditor | null>(null);
  useEffect(
    () => () => {
      const models = diff.current?.getModel();
      if (models) setTimeout(() => [models.original, models.modified].forEach((m) => m.isDisposed() || m.dispose()), 0);
    },
    [],
  );
  const language = tab.language ?? (monaco && tab.path ? languageForPath(monaco, tab.path) : 'plaintext');
  return (
    <div className="ide-editor-host" data-testid="diff-view">
      <DiffEditor
        original={tab.original}
        modified={tab.modified}
        language={language}
        theme={themeOf(preferences)}
        loading={<p className="muted ide-pad">Loading the diff…</p>}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(e) => {
          diff.current = e;
        }}
        options={{ readOnly: true, renderSideBySide: true, automaticLayout: true, fontSize: preferences.editorFontSize }}
      />
    </div>
  );
}
