// The language-server table (the seed's, trimmed to servers that speak LSP over stdio with no
// setup): which binary serves which file extensions, with what arguments and settings. A server
// whose binary is not on PATH is skipped quietly (its language reports "stopped").
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { sanitizedEnv } from '../process-utils';

export interface ServerSpec {
  /** Our language key (FileDiagnostics.language). */
  language: string;
  /** Binaries tried in order (the seed: pyright-langserver preferred, pylsp as fallback). */
  commands: { bin: string; args: string[] }[];
  /** File extension -> LSP languageId. */
  extensions: Record<string, string>;
  /** Settings answered to workspace/configuration and sent with didChangeConfiguration. */
  settings?: (root: string, bin: string) => Record<string, unknown>;
  initializationOptions?: (root: string, bin: string) => Record<string, unknown>;
  /**
   * A publish counts as the file's answer only after this long without another one from the server:
   * typescript-language-server publishes each of tsserver's passes (syntax, then semantic, then
   * suggestions) separately, so its first publish after a change can be the syntax pass alone.
   */
  settleQuietMs?: number;
}

/** Where pyright looks for a project's virtual environment (the seed's venv detection). */
const VENV_DIRS = ['.venv', 'venv', 'env', '.env'];

/** The first of VENV_DIRS under root that looks like a venv (has pyvenv.cfg or bin/python). */
export function detectVenv(root: string): string | null {
  for (const d of VENV_DIRS) {
    const dir = path.join(root, d);
    try {
      if (!statSync(dir).isDirectory()) continue;
    } catch {
      continue;
    }
    if (existsSync(path.join(dir, 'pyvenv.cfg')) || existsSync(path.join(dir, 'bin/python'))) return d;
  }
  return null;
}

/** pyright: basic mode, open files only, and the seed's rule overrides (fewer false positives). */
export function pyrightSettings(root: string): Record<string, unknown> {
  const venv = detectVenv(root);
  return {
    python: {
      ...(venv ? { venvPath: root, venv } : {}),
      analysis: {
        typeCheckingMode: 'basic',
        diagnosticMode: 'openFilesOnly',
        autoSearchPaths: true,
        useLibraryCodeForTypes: true,
        diagnosticSeverityOverrides: {
          reportOptionalMemberAccess: 'none',
          reportOptionalSubscript: 'none',
          reportOptionalIterable: 'none',
          reportOptionalCall: 'none',
          reportOptionalOperand: 'none',
          reportOptionalContextManager: 'none',
          reportMissingImports: 'warning',
          reportAttributeAccessIssue: 'warning',
          reportArgumentType: 'warning',
          reportAssignmentType: 'warning',
        },
      },
    },
  };
}

const pylspSettings = (): Record<string, unknown> => ({
  pylsp: {
    plugins: {
      pyflakes: { enabled: true },
      pycodestyle: { enabled: false },
      pydocstyle: { enabled: false },
      mccabe: { enabled: false },
      flake8: { enabled: false },
      pylint: { enabled: false },
    },
  },
});

/** tsserver of the image's TypeScript (next to the `tsserver` on PATH), not the server's fallback. */
export function findTsserver(): string | null {
  const bin = which('tsserver');
  if (!bin) return null;
  try {
    const lib = path.join(path.dirname(realpathSync(bin)), '../lib/tsserver.js');
    return existsSync(lib) ? path.normalize(lib) : null;
  } catch {
    return null;
  }
}

export const SERVER_SPECS: ServerSpec[] = [
  {
    language: 'typescript',
    commands: [{ bin: 'typescript-language-server', args: ['--stdio'] }],
    settleQuietMs: 1500,
    extensions: { '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.tsx': 'typescriptreact', '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascriptreact' },
    initializationOptions: () => {
      const tsserver = findTsserver();
      return { ...(tsserver ? { tsserver: { path: tsserver } } : {}), preferences: { includeCompletionsForModuleExports: true } };
    },
  },
  {
    language: 'python',
    commands: [
      { bin: 'pyright-langserver', args: ['--stdio'] },
      { bin: 'pylsp', args: [] },
    ],
    extensions: { '.py': 'python', '.pyi': 'python' },
    settings: (root, bin) => (bin === 'pylsp' ? pylspSettings() : pyrightSettings(root)),
  },
  { language: 'go', commands: [{ bin: 'gopls', args: [] }], extensions: { '.go': 'go' }, settings: () => ({ gopls: { staticcheck: false } }) },
  { language: 'rust', commands: [{ bin: 'rust-analyzer', args: [] }], extensions: { '.rs': 'rust' } },
  { language: 'c', commands: [{ bin: 'clangd', args: [] }], extensions: { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp' } },
  { language: 'ruby', commands: [{ bin: 'solargraph', args: ['stdio'] }], extensions: { '.rb': 'ruby' } },
  { language: 'php', commands: [{ bin: 'intelephense', args: ['--stdio'] }], extensions: { '.php': 'php' } },
  { language: 'yaml', commands: [{ bin: 'yaml-language-server', args: ['--stdio'] }], extensions: { '.yaml': 'yaml', '.yml': 'yaml' }, settings: () => ({ yaml: { schemaStore: { enable: false }, validate: true } }) },
  { language: 'shell', commands: [{ bin: 'bash-language-server', args: ['start'] }], extensions: { '.sh': 'shellscript', '.bash': 'shellscript' } },
  { language: 'lua', commands: [{ bin: 'lua-language-server', args: [] }], extensions: { '.lua': 'lua' } },
  { language: 'markdown', commands: [{ bin: 'marksman', args: ['server'] }], extensions: { '.md': 'markdown' } },
];

/** The spec and languageId serving a path, or null. */
export function specFor(rel: string, specs: ServerSpec[] = SERVER_SPECS): { spec: ServerSpec; languageId: string } | null {
  const ext = path.extname(rel).toLowerCase();
  for (const spec of specs) {
    const languageId = spec.extensions[ext];
    if (languageId) return { spec, languageId };
  }
  return null;
}

/** An executable on PATH, or null. */
export function which(bin: string, envPath = sanitizedEnv().PATH ?? ''): string | null {
  const dirs = path.isAbsolute(bin) ? [path.dirname(bin)] : envPath.split(path.delimiter);
  bin = path.basename(bin);
  for (const dir of dirs) {
    if (!dir) continue;
    const p = path.join(dir, bin);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

