// The workspace context of a run: instruction files and the file tree, told to the model as
// `prompt.guidance` after the cached prefix (at the run's start, and when a call reaches a
// directory with instructions of its own). What the model was already told comes from the
// conversation's fold, so a later run sends only what changed and a resumed segment nothing.
import type { WorkspaceContextData } from '@h/contracts';
import type { Workspace } from '@h/contracts';
import type { ToolCall } from '@h/llm';
import { listTree, treeUpdate, type TreeListing } from './file-tree';
import {
  INSTRUCTION_FILE_NAMES,
  INSTRUCTIONS_MAX_BYTES_DEFAULT,
  directoryChain,
  instructionPathsIn,
  readInstruction,
  renderInstructions,
  type InstructionChange,
} from './instructions';

export interface WorkspaceContextOptions {
  /** The file tree on a session's first run, then patches (default true). */
  tree?: boolean;
  /** AGENTS.md / CLAUDE.md (default true). */
  instructions?: boolean;
  /** Bytes of instruction text one run may add (default INSTRUCTIONS_MAX_BYTES_DEFAULT). */
  instructionsMaxBytes?: number;
  /**
   * The tree listing, started by the host before the run (beside its other reads) so the opening
   * does not wait for it; listed here when absent.
   */
  listing?: Promise<TreeListing | null>;
}

/** What the model already has, folded from the session's events (Conversation). */
export interface KnownContext {
  instructions: ReadonlyMap<string, string>;
  tree: ReadonlySet<string> | null;
}

export interface ContextGuidance {
  content: string;
  workspaceContext: WorkspaceContextData;
}

// Tools that create no file but the one their arguments name (afterCalls looks at those): after
// any other call (a command, a terminal, an MCP tool, a sub-agent) the opening's walk is stale.
// (rename_file is not one: a directory moved into a walked one's place brings its own files.)
const FILE_TOOLS = new Set([
  'read_file', 'list_files', 'search_files', 'grep', 'write_file', 'edit_file', 'delete_file', 'create_directory',
  'read_problems', 'read_graph', 'read_command_output', 'write_summary', 'write_todos', 'task_complete',
  'remember', 'recall', 'forget', 'session_search', 'session_trace', 'session_event_search', 'session_event_read', 'session_event_trace',
]);

// Argument names of the tools that name a file or directory.
const PATH_ARGS = ['path', 'file_path', 'from', 'to', 'old_path', 'new_path', 'cwd', 'directory'];

export class WorkspaceContextTracker {
  private remaining: number;
  private readonly checkedDirs = new Set<string>();
  /**
   * The opening's walk, by directory, while nothing but the file tools (whose paths afterCalls
   * checks anyway) has run since: a command may create an instruction file anywhere.
   */
  private walked: ReadonlyMap<string, readonly string[]> | null = null;

  constructor(
    private readonly workspace: Workspace,
    private readonly options: WorkspaceContextOptions,
    private readonly known: () => KnownContext,
  ) {
    this.remaining = options.instructionsMaxBytes ?? INSTRUCTIONS_MAX_BYTES_DEFAULT;
  }

  /** A new run's opening context: instructions at the root and those known before (re-checked), and the tree or its patch. */
  async opening(): Promise<ContextGuidance | null> {
    const parts: string[] = [];
    const data: WorkspaceContextData = {};
    // One walk of the workspace serves the tree and the root's instruction files.
    const listing = this.options.tree !== false ? await (this.options.listing ?? listTree(this.workspace)).catch(() => null) : null;
    this.walked = listing?.dirFiles ?? null;
    if (this.options.instructions !== false) {
      const known = this.known().instructions;
      const atRoot = listing?.rootFiles ? this.rootInstructions(listing.rootFiles) : await this.discover(['']).catch(() => []);
      const changes = await this.load([...new Set([...atRoot, ...known.keys()])]);
      if (changes.length) {
        parts.push(renderInstructions(changes, true));
        data.instructions = entries(changes);
      }
    }
    if (listing) {
      const update = treeUpdate(this.known().tree, listing);
      if (update) {
        parts.push(update.text);
        data.tree = update.mode === 'full' ? { mode: 'full', paths: update.paths, total: update.total } : { mode: 'patch', added: update.added, deleted: update.deleted };
      }
    }
    return parts.length ? { content: parts.join('\n\n'), workspaceContext: data } : null;
  }

  /** After a batch: instructions of directories the calls reached for the first time, and instruction files they changed. */
  async afterCalls(calls: readonly ToolCall[]): Promise<ContextGuidance | null> {
    if (this.options.instructions === false) return null;
    if (calls.some((c) => !FILE_TOOLS.has(c.name))) this.walked = null;
    const touched = calls.flatMap((c) => pathsOf(c.arguments));
    if (!touched.length) return null;
    const known = this.known().instructions;
    // A listed directory counts as reached too, not only the directories above a file.
    const listed = calls.filter((c) => c.name === 'list_files').flatMap((c) => pathsOf(c.arguments)).filter((p) => p && p !== '.');
    const found = await this.discover([...new Set([...touched.flatMap(directoryChain), ...listed])]).catch(() => [] as string[]);
    const rewritten = touched.map(normalise).filter((p) => known.has(p) || INSTRUCTION_FILE_NAMES.some((n) => p === n || p.endsWith(`/${n}`)));
    const changes = await this.load([...new Set([...found, ...rewritten])]);
    return changes.length ? { content: renderInstructions(changes, false), workspaceContext: { instructions: entries(changes) } } : null;
  }

  /** The root's instruction files, from names a listing already holds (the root counts as looked at). */
  private rootInstructions(rootFiles: readonly string[]): string[] {
    this.checkedDirs.add('');
    const names = new Set(rootFiles);
    return INSTRUCTION_FILE_NAMES.filter((n) => names.has(n));
  }

  /** Instruction files in directories not looked at yet in this run. */
  private async discover(dirs: string[]): Promise<string[]> {
    const fresh = dirs.filter((d) => !this.checkedDirs.has(d));
    for (const d of fresh) this.checkedDirs.add(d);
    const found = await Promise.all(
      fresh.map((d) => {
        // A directory the walk saw, unchanged since but by file tools: its names are known.
        const names = this.walked?.get(d === '.' ? '' : d);
        if (names) return INSTRUCTION_FILE_NAMES.filter((n) => names.includes(n)).map((n) => (d && d !== '.' ? `${d}/${n}` : n));
        return instructionPathsIn(this.workspace, d).catch(() => [] as string[]);
      }),
    );
    return found.flat();
  }

  /** Reads the files and keeps those new to the model or changed since; a known file that is gone is "removed". */
  private async load(paths: string[]): Promise<InstructionChange[]> {
    const known = this.known().instructions;
    const changes: InstructionChange[] = [];
    // Root first, then deeper: the budget goes to the most general instructions first.
    for (const path of paths.sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1))) {
      const file = await readInstruction(this.workspace, path, Math.max(0, this.remaining));
      if (!file) {
        if (known.has(path)) changes.push({ kind: 'removed', path });
        continue;
      }
      if (known.get(path) === file.sha256) continue;
      this.remaining -= Buffer.byteLength(file.text);
      changes.push({ kind: 'loaded', file, changed: known.has(path) });
    }
    return changes;
  }
}

function entries(changes: readonly InstructionChange[]): NonNullable<WorkspaceContextData['instructions']> {
  return changes.map((c) => (c.kind === 'removed' ? { path: c.path, sha256: '', removed: true } : { path: c.file.path, sha256: c.file.sha256 }));
}

function normalise(p: string): string {
  return p.replace(/^\/?workspace\/?/, '').replace(/^\.\//, '').replace(/\/+$/, '');
}

/** The workspace paths a call's arguments name (JSON text from the model; anything unparsable names none). */
function pathsOf(args: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== 'object') return [];
  const record = parsed as Record<string, unknown>;
  return PATH_ARGS.map((k) => record[k])
    .filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length < 4096 && !v.includes('..'))
    .map(normalise);
}
