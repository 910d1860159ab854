// The seed's ITR chunk registry: the system guidance split into themed chunks, each with trigger
// keywords. core_rules and lang_general are always sent; the others only once the conversation
// mentions at least two of their triggers. Texts are written for tokens: every word here is paid
// on every request of every session. (The seed's browser chunk returns with the browser tools.)

/** Which tools the session offers: prompt text names only those (no phantom tools). */
export type OfferedTools = ReadonlySet<string>;

export interface PromptChunk {
  id: string;
  /** Always part of the system prompt. */
  always?: boolean;
  /** Case-insensitive substrings; a chunk is selected when at least MIN_TRIGGER_SCORE occur. */
  triggers: readonly string[];
  /** The chunk's text for the tools offered; a pure function, so a session's prompt is byte-stable. */
  text: string | ((offered: OfferedTools) => string);
}

export const MIN_TRIGGER_SCORE = 2;

/** A line of guidance that only applies when every tool it names is offered. */
type Line = string | readonly [tools: readonly string[], text: string];

function lines(offered: OfferedTools, all: readonly Line[]): string {
  return all
    .filter((l) => typeof l === 'string' || l[0].every((t) => offered.has(t)))
    .map((l) => (typeof l === 'string' ? l : l[1]))
    .join('\n');
}

// The dedicated tool for each shell stand-in the model likes to reach for.
const DEDICATED: ReadonlyArray<[tool: string, instead: string]> = [
  ['read_file', 'cat/head/tail'],
  ['list_files', 'ls'],
  ['search_files', 'find'],
  ['grep', 'shell grep'],
  ['edit_file', 'sed/awk'],
  ['write_file', 'echo >'],
];

function coreRules(offered: OfferedTools): string {
  const dedicated = DEDICATED.filter(([tool]) => offered.has(tool)).map(([tool, instead]) => `${tool} (not ${instead})`);
  const blockers = [
    'without an accepted summary',
    offered.has('write_todos') && 'with open todos',
    offered.has('read_problems') && 'while read_problems reports errors',
  ].filter(Boolean) as string[];
  const refusedWhen = blockers.length > 1 ? `${blockers.slice(0, -1).join(', ')}, or ${blockers.at(-1)}` : blockers[0];
  return lines(offered, [
    `You are H, a coding agent. You work in the user's workspace through tools; paths are relative to the workspace root.`,
    '# Rules',
    '- Use tools to inspect and change things; do not just describe what to do.',
    ...(dedicated.length ? [`- Use the dedicated tools, never shell stand-ins: ${dedicated.join(', ')}.`] : []),
    [['run_command'], '- run_command is for commands that finish: tests, builds, lint, git, installs. Never servers, watchers, interactive programs or background jobs (&, nohup).'],
    [['edit_file', 'write_file'], '- Read a file before editing it. edit_file needs an old_string copied exactly (indentation included) and unique in the file; use write_file only for new files or full rewrites.'],
    '- Put independent tool calls in one response (e.g. read several files at once).',
    '- After changing code, verify it: rerun the failing test, the tests you touched, or the build.',
    [['write_todos'], '- For multi-step work keep a todo list with write_todos, updated in the same response as the work it tracks.'],
    '- Secret files (.env, keys, credentials) are off-limits.',
    [['read_command_output'], '- Long outputs are cut to key lines with a [cmd #N] locator; read_command_output cmd_id=N (offset, limit, filter) shows the rest.'],
    '- Keep text replies short; never echo file contents back.',
    '# Finishing',
    '- If no tool was needed, answer in plain text.',
    [['write_summary', 'task_complete'], `- Otherwise end with write_summary and task_complete, both in one response. task_complete is refused ${refusedWhen}.`],
    [['write_summary'], `- Summary template (concrete: name files, commands and results; vague summaries are rejected):
### Changes Made
- path: what changed (or "- No files changed")
### Verification
- command or check: result
### Outcome
- what was accomplished`],
    [['write_summary', 'write_todos'], 'Add "### Todo Progress" with every todo\'s final status if you used write_todos.'],
  ]);
}

const LANG_GENERAL = (offered: OfferedTools) => `# Troubleshooting
Read the whole error; open the file at the reported line; make the smallest fix; rerun the same command; repeat until clean.${
  offered.has('grep') ? ' Find definitions and usages with grep instead of guessing APIs.' : ''
}`;

/**
 * The seed's fixed prior-history guidance (dsh "Prior-history guidance"), verbatim, for every agent
 * offered the session-query tools (the main agent; sub-agents have none, so they get no text).
 */
export const PRIOR_HISTORY_GUIDANCE =
  'Use session_search to find relevant work from prior sessions, or session_event_search to search earlier events in one session. Search results are cursor-free and workspace-scoped. Follow a useful hit with session_trace, session_event_trace, or session_event_read when you need lineage, relationships, or exact data.';

const PRIOR_HISTORY = (offered: OfferedTools) => (offered.has('session_search') ? `# Prior history\n${PRIOR_HISTORY_GUIDANCE}` : '');

export const PROMPT_CHUNKS: readonly PromptChunk[] = [
  { id: 'core_rules', always: true, triggers: [], text: coreRules },
  { id: 'lang_general', always: true, triggers: [], text: LANG_GENERAL },
  { id: 'prior_history', always: true, triggers: [], text: PRIOR_HISTORY },
  {
    id: 'build_fix',
    triggers: ['build', 'compile', 'error', 'fix', 'edit_file', 'write_file', 'read_problems', 'run_command', 'syntax'],
    text: `# Build fixes
Get exact errors from the build or type-check first. Fix the first error first (later ones often cascade), then rerun the same command. Missing module: install it or correct the import path. Syntax error: check the line before the reported one too.`,
  },
  {
    id: 'lang_js',
    triggers: ['.ts', '.tsx', '.js', '.jsx', 'package.json', 'typescript', 'node', 'npm', 'react', 'vite', 'import ', 'npx', 'tsc', 'jest'],
    text: `# JavaScript / TypeScript
Check package.json scripts before running anything. Type-check: npx tsc --noEmit. Build: npm run build. Lint: npx eslint . Tests: npm test (or the runner the scripts name). Missing module: npm install <pkg>.`,
  },
  {
    id: 'lang_python',
    triggers: ['.py', 'python', 'pip', 'flask', 'django', 'traceback', 'modulenotfounderror', 'uvicorn', 'pytest'],
    text: `# Python
Syntax check: python -m py_compile <file>.py, or python -m compileall . for all files. Tests: python -m pytest. Dependencies: pip install -r requirements.txt or pip install <pkg>. Read tracebacks from the bottom: the last frame in project code is usually the place to fix.`,
  },
  {
    id: 'lang_go',
    triggers: ['.go', 'go.mod', 'go build', 'go vet', 'go test', 'go run', 'golang'],
    text: `# Go
Compile: go build ./... Static analysis: go vet ./... Tests: go test ./... Unused imports are errors: remove them. Definitions: grep "func Name" or "type Name".`,
  },
  {
    id: 'lang_rust',
    triggers: ['.rs', 'cargo', 'cargo.toml', 'rustc', 'rust', 'clippy'],
    text: `# Rust
Fast check: cargo check (preferred). Build: cargo build. Tests: cargo test. Lint: cargo clippy.`,
  },
  {
    id: 'lang_java',
    triggers: ['.java', 'pom.xml', 'build.gradle', 'maven', 'mvn', 'gradle', 'javac'],
    text: `# Java
Maven: mvn compile. Gradle: gradle build (compile only: gradle compileJava). Single file: javac <File>.java. Definitions: grep "class Name".`,
  },
  {
    id: 'lang_c',
    triggers: ['.c', '.cpp', '.h', 'cmakelists.txt', 'gcc', 'g++', 'cmake', 'makefile'],
    text: `# C / C++
Single file: gcc -Wall -Wextra <file>.c -o output (g++ for C++). CMake: cmake --build build. Makefile: make.`,
  },
  {
    id: 'lang_ruby',
    triggers: ['.rb', 'gemfile', 'ruby', 'rake', 'rspec', 'bundle', 'gem ', 'rails'],
    text: `# Ruby
Syntax: ruby -c <file>.rb. Dependencies: bundle install (one gem: gem install <pkg>). Tests: bundle exec rspec or bundle exec rake test.`,
  },
  {
    id: 'lang_php',
    triggers: ['.php', 'composer.json', 'php', 'laravel', 'symfony', 'wordpress'],
    text: `# PHP
Syntax: php -l <file>.php. Dependencies: composer install.`,
  },
  {
    id: 'lang_shell',
    triggers: ['.sh', '.bash', 'shellcheck', '#!/bin/bash', 'bash ', 'makefile'],
    text: `# Shell
Syntax: bash -n <script>.sh. Static analysis: shellcheck <script>.sh (if installed).`,
  },
  {
    id: 'server_startup',
    triggers: ['npm start', 'npm run dev', 'flask run', 'uvicorn', 'eaddrinuse', 'port', 'listen'],
    text: (offered) => `# Servers
Servers and watchers (npm start, npm run dev, next dev, vite, node server.js, python app.py, flask run, uvicorn, go run ., cargo run) ${
      offered.has('run_command') ? 'never run in run_command: ' : ''
    }${offered.has('run_in_terminal') ? 'start them in a terminal (run_in_terminal) or tell the user the command' : 'tell the user the command to start in their own terminal'}. EADDRINUSE: the port is taken; use another port or stop the old process. Install dependencies before starting.`,
  },
  {
    id: 'diagnostics',
    triggers: ['run_command', 'read_problems', 'read_command_output', 'terminal', 'sandbox', 'build', 'compile', 'test', 'lint', 'error'],
    text: (offered) => {
      const said = [
        offered.has('read_problems') &&
          `read_problems returns current errors and warnings (language servers, else the project's build/lint check).${
            offered.has('task_complete') ? ' Only errors block task_complete; after fixing, call read_problems again.' : ''
          }`,
        offered.has('run_command') &&
          offered.has('read_command_output') &&
          'run_command output shows key lines; when they are not enough, read_command_output with a filter (e.g. "error|fail") finds the rest.',
      ].filter(Boolean);
      return said.length ? `# Diagnostics\n${said.join(' ')}` : '';
    },
  },
  {
    // The seed's rule: dependency and structure questions go to read_graph before grep.
    id: 'code_graph',
    triggers: ['import', 'export', 'depend', 'unused', 'refactor', 'rename', 'who uses', 'structure', 'read_graph', 'architecture'],
    text: (offered) =>
      offered.has('read_graph')
        ? '# Code graph\nWhat a file exports or imports, who imports it, which file exports a symbol, unused imports, the tree: read_graph answers in one call, faster than grep.'
        : '',
  },
];

export const CHUNKS_BY_ID: ReadonlyMap<string, PromptChunk> = new Map(PROMPT_CHUNKS.map((c) => [c.id, c]));
