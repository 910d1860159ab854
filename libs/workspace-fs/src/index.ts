export { compileGlob, isGlob, matchesGlob, nameMatcher, escapeRegExp, InvalidGlobError } from './glob';
export { SKIPPED_DIRECTORIES, isInSkippedDirectory } from './skipped-directories';
export { COMMAND_ENV_ALLOWLIST, commandEnv } from './command-env';
export { applyExactEdit, type ExactEditResult, type ExactEditFailure } from './exact-edit';
