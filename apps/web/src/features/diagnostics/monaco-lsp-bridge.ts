'use client';

import type * as MonacoApi from 'monaco-editor';
import type { TextRange } from '@h/contracts';
import { modelPath, type Monaco } from '../ide/monaco-setup';
import { completionKindName, markersOf, servedLanguages, typescriptServed, workspacePathOf, type DiagnosticsState } from './diagnostics-state';
import type { DiagnosticsStore } from './diagnostics-store';

type Model = MonacoApi.editor.ITextModel;

/** Monaco's own owner for our markers; the built-in TS worker uses "typescript"/"javascript". */
export const MARKER_OWNER = 'lsp';
/** Typing sends the buffer this long after the last key (the seed's debounce). */
const SYNC_DEBOUNCE_MS = 250;
/** A buffer larger than this is not sent: the server would refuse it and the socket carries it all. */
const MAX_SYNC_CHARS = 2_000_000;

export interface LspBridgeOptions {
  canWrite: boolean;
  openFile(path: string, at: { line: number; column: number }): void;
}

interface Bridge {
  store: DiagnosticsStore;
  options: LspBridgeOptions;
  /** Sends a model's pending buffer now (before a completion asks about it). */
  flush(model: Model): Promise<void>;
}

// Monaco is one instance per page, its providers global; they ask whichever bridge is installed
// (one IDE per page), so they are registered once per language and never pile up.
let current: Bridge | null = null;
const registered = new Set<string>();
let openerInstalled = false;

const rangeOf = (monaco: Monaco, r: TextRange) => new monaco.Range(r.startLine, r.startColumn, r.endLine, r.endColumn);

function registerProviders(monaco: Monaco, language: string): void {
  if (registered.has(language)) return;
  registered.add(language);
  const at = (model: Model, position: MonacoApi.Position) => {
    const path = workspacePathOf(model.uri.path);
    return path && current ? { bridge: current, request: { path, line: position.lineNumber, column: position.column } } : null;
  };
  monaco.languages.registerCompletionItemProvider(language, {
    triggerCharacters: ['.', '"', "'", '/', '@', '<'],
    async provideCompletionItems(model, position) {
      const target = at(model, position);
      if (!target) return { suggestions: [] };
      await target.bridge.flush(model);
      const list = await target.bridge.store.completion(target.request);
      const word = model.getWordUntilPosition(position);
      const wordRange = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      return {
        incomplete: list?.incomplete ?? false,
        suggestions: (list?.items ?? []).map((item) => ({
          label: item.label,
          kind: monaco.languages.CompletionItemKind[completionKindName(item.kind)],
          detail: item.detail,
          documentation: item.documentation ? { value: item.documentation } : undefined,
          insertText: item.insertText,
          insertTextRules: item.snippet ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
          range: item.range ? rangeOf(monaco, item.range) : wordRange,
        })),
      };
    },
  });
  monaco.languages.registerHoverProvider(language, {
    async provideHover(model, position) {
      const target = at(model, position);
      if (!target) return null;
      await target.bridge.flush(model);
      const hover = await target.bridge.store.hover(target.request);
      return hover?.contents ? { contents: [{ value: hover.contents }], range: hover.range ? rangeOf(monaco, hover.range) : undefined } : null;
    },
  });
  monaco.languages.registerDefinitionProvider(language, {
    async provideDefinition(model, position) {
      const target = at(model, position);
      if (!target) return null;
      await target.bridge.flush(model);
      const locations = await target.bridge.store.definition(target.request);
      return locations.map((l) => ({ uri: monaco.Uri.parse(modelPath(l.path)), range: rangeOf(monaco, l.range) }));
    },
  });
}

/**
 * A definition in another file: Monaco's standalone editor cannot open models itself, so the IDE
 * opens the file in a tab (its usual open-file path) at the line and column.
 */
function installOpener(monaco: Monaco): void {
  if (openerInstalled) return;
  openerInstalled = true;
  monaco.editor.registerEditorOpener({
    openCodeEditor(_source, resource, selectionOrPosition) {
      const path = workspacePathOf(resource.path);
      if (!path || !current) return false;
      const at = selectionOrPosition && 'startLineNumber' in selectionOrPosition
        ? { line: selectionOrPosition.startLineNumber, column: selectionOrPosition.startColumn }
        : { line: selectionOrPosition?.lineNumber ?? 1, column: selectionOrPosition?.column ?? 1 };
      current.options.openFile(path, at);
      return true;
    },
  });
}

let builtinConfigured = false;

/**
 * Monaco's built-in TypeScript knows neither the project's tsconfig nor its node_modules; the
 * workspace's TypeScript server (on the sandbox image) does. Monaco reads its TS/JS mode
 * configuration once, when the language is first used, so its suggestions, hovers and definitions
 * are turned off up front, before any model exists: the LSP's are the only ones (no doubled lists).
 * Its diagnostics can be switched at any time: while the TypeScript server serves the workspace
 * they are off (one error, one marker); without it they stay as the seed tunes them (TS with
 * strict and noImplicitAny off, JS syntax only).
 */
function tuneBuiltinTypescript(monaco: Monaco, served: boolean): void {
  const ts = monaco.typescript;
  if (!ts) return;
  if (!builtinConfigured) {
    builtinConfigured = true;
    for (const defaults of [ts.typescriptDefaults, ts.javascriptDefaults]) {
      defaults.setModeConfiguration({ ...defaults.modeConfiguration, completionItems: false, hovers: false, definitions: false });
    }
    ts.typescriptDefaults.setCompilerOptions({ ...ts.typescriptDefaults.getCompilerOptions(), strict: false, noImplicitAny: false });
  }
  for (const [defaults, semantic] of [[ts.typescriptDefaults, true], [ts.javascriptDefaults, false]] as const) {
    const now = defaults.getDiagnosticsOptions();
    const want = { noSemanticValidation: served || !semantic, noSyntaxValidation: served };
    if (now.noSemanticValidation !== want.noSemanticValidation || now.noSyntaxValidation !== want.noSyntaxValidation) defaults.setDiagnosticsOptions({ ...now, ...want });
  }
}

/**
 * Puts the store's diagnostics on every workspace model as markers (owner "lsp", models opened
 * later included), sends buffers of served languages (`lsp.sync`, debounced; `lsp.close` when a
 * model goes), and routes the LSP providers to this store. Returns the uninstall.
 */
export function installLspBridge(monaco: Monaco, store: DiagnosticsStore, options: LspBridgeOptions): () => void {
  const disposables: MonacoApi.IDisposable[] = [];
  const shown = new Map<string, unknown>();
  const timers = new Map<Model, ReturnType<typeof setTimeout>>();
  const synced = new Set<string>();
  const unserved = new Set<string>();
  const answered = new Set<string>();
  let served = servedLanguages(store.state, unserved);

  const applyMarkers = (model: Model, state: DiagnosticsState, force = false) => {
    const path = workspacePathOf(model.uri.path);
    if (!path || model.isDisposed()) return;
    const file = state.files[path];
    if (!force && shown.get(model.uri.toString()) === file) return;
    shown.set(model.uri.toString(), file);
    monaco.editor.setModelMarkers(model, MARKER_OWNER, markersOf(file, monaco.MarkerSeverity));
  };

  const send = async (model: Model) => {
    timers.delete(model);
    const path = workspacePathOf(model.uri.path);
    const language = model.getLanguageId();
    if (!path || model.isDisposed() || !options.canWrite || !served.includes(language)) return;
    const text = model.getValue();
    if (text.length > MAX_SYNC_CHARS) return;
    synced.add(path);
    const by = await store.sync(path, text);
    if (by === null) {
      // Only an answer says nobody serves it; a dropped socket is retried on the next change.
      if (store.state.connection === 'live') unserved.add(language);
    } else if (!answered.has(by)) {
      answered.add(by);
      refresh();
    }
  };
  const schedule = (model: Model) => {
    clearTimeout(timers.get(model));
    timers.set(model, setTimeout(() => void send(model), SYNC_DEBOUNCE_MS));
  };

  const watched = new Map<Model, MonacoApi.IDisposable[]>();
  const watch = (model: Model) => {
    if (!workspacePathOf(model.uri.path)) return;
    applyMarkers(model, store.state, true);
    schedule(model);
    watched.set(model, [
      model.onDidChangeContent(() => schedule(model)),
      model.onDidChangeLanguage(() => schedule(model)),
      model.onWillDispose(() => {
        clearTimeout(timers.get(model));
        timers.delete(model);
        shown.delete(model.uri.toString());
        for (const d of watched.get(model) ?? []) d.dispose();
        watched.delete(model);
        const path = workspacePathOf(model.uri.path);
        if (path && synced.delete(path)) store.close(path);
      }),
    ]);
  };

  function refresh() {
    served = servedLanguages(store.state, unserved);
    for (const language of served) registerProviders(monaco, language);
    tuneBuiltinTypescript(monaco, typescriptServed(store.state, answered));
    for (const model of monaco.editor.getModels()) applyMarkers(model, store.state);
  }

  const bridge: Bridge = {
    store,
    options,
    async flush(model) {
      if (!timers.has(model)) return;
      clearTimeout(timers.get(model));
      await send(model);
    },
  };
  current = bridge;
  installOpener(monaco);
  refresh();
  for (const model of monaco.editor.getModels()) watch(model);
  disposables.push(monaco.editor.onDidCreateModel(watch));
  let lastServers = store.state.servers;
  const unsubscribe = store.subscribe(() => {
    // A new snapshot (first subscribe, a reconnect, a reset): the server may hold none of our
    // buffers (or the sync before it was refused offline), so the open ones are sent again.
    if (store.state.servers !== lastServers) for (const model of monaco.editor.getModels()) schedule(model);
    lastServers = store.state.servers;
    refresh();
  });

  return () => {
    unsubscribe();
    for (const t of timers.values()) clearTimeout(t);
    for (const d of [...disposables, ...[...watched.values()].flat()]) d.dispose();
    for (const model of monaco.editor.getModels()) if (!model.isDisposed()) monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
    if (current === bridge) current = null;
  };
}
