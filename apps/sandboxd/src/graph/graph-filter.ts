// What the knowledge graph leaves out (the seed's "Filtering"): secrets (.env), VCS internals,
// dependencies, build output, IDE and tool caches, binary/media files and lock files. Project
// config dotfiles (.eslintrc.js, .prettierrc) and dot-directories (.github/, .vscode/) stay in.
import { SKIPPED_DIRECTORIES } from '@h/workspace-fs';

const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  ...SKIPPED_DIRECTORIES,
  '.hg', '.svn', 'vendor', 'bower_components', 'jspm_packages',
  'dist', 'build', 'out', '.next', '.nuxt', '.svelte-kit', '.turbo', '.output', 'target', 'coverage',
  '.cache', '.parcel-cache', '.idea', '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.tox', '.venv', 'venv', '.eggs',
]);
const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  `png jpg jpeg gif bmp ico webp avif tiff psd svgz mp3 mp4 wav ogg flac webm mov avi mkv m4a
  zip gz tgz bz2 xz 7z rar tar jar war whl egg pdf doc docx xls xlsx ppt pptx
  woff woff2 ttf otf eot exe dll so dylib o a obj class pyc pyo pyd wasm node bin dat db sqlite sqlite3 map`.split(/\s+/),
);
const LOCK_FILES: ReadonlySet<string> = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'poetry.lock', 'Pipfile.lock', 'Cargo.lock', 'composer.lock', 'Gemfile.lock', 'uv.lock']);

export function isGraphSkippedDir(name: string): boolean {
  return SKIPPED_DIRS.has(name) || name.endsWith('.egg-info');
}

export function isGraphFile(name: string): boolean {
  if (name === '.env' || name.startsWith('.env.') || name === '.DS_Store' || LOCK_FILES.has(name) || name.endsWith('.lock')) return false;
  const dot = name.lastIndexOf('.');
  return dot <= 0 || !BINARY_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

/** Whether a workspace-relative path is in the graph's scope (every directory on the way, then the name). */
export function isInGraph(rel: string, isDir: boolean): boolean {
  const parts = rel.split('/');
  const dirs = isDir ? parts : parts.slice(0, -1);
  if (dirs.some(isGraphSkippedDir)) return false;
  return isDir || isGraphFile(parts[parts.length - 1]);
}
