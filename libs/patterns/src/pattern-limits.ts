// The one place for the limits that keep a pattern from the model or a sandbox from freezing a
// shared process. The README's Limits table and the tools' descriptions quote these numbers.

/**
 * Only this many leading characters of a line are matched against any pattern, ours or the
 * model's. RE2 time grows with line length × program size, and our own fixed JS patterns backtrack
 * polynomially on long lines, so every line is cut to this before a pattern runs.
 */
export const MAX_MATCH_LINE_CHARS = 1000;

/** Longest pattern accepted from the model (characters). */
export const MAX_PATTERN_CHARS = 2000;

/**
 * Largest compiled RE2 program accepted (RE2's own rough cost measure: about one instruction per
 * literal character, class or repetition copy). With lines capped above, the worst line then costs
 * tens of milliseconds, not seconds; real search patterns are a few dozen instructions.
 */
export const MAX_PATTERN_PROGRAM_SIZE = 1000;

/** Wall-clock budget for one filter over a tool output; past it the answer is partial and says so. */
export const MATCH_BUDGET_MS = 500;

/** Matching loops give the event loop a turn at least this often, so other runs keep moving. */
export const MATCH_YIELD_EVERY_MS = 10;

/**
 * Wall-clock budget for one workspace search (grep over files): the host's LocalWorkspace stops
 * and reports a truncated result; sandboxd kills its ripgrep/grep child.
 */
export const SEARCH_BUDGET_MS = 15_000;
