// The seed's summary lock: a final summary must follow the template (### Changes Made,
// ### Verification, ### Outcome, plus ### Todo Progress when todos exist) and carry concrete
// details. Vague or thought-process summaries are rejected with reasons the model can act on.
import type { AgentTodo } from '@h/contracts';
import { capForMatch } from '@h/patterns';

export const SUMMARY_SECTIONS = ['Changes Made', 'Verification', 'Outcome'] as const;
export const TODO_SECTION = 'Todo Progress';
const MIN_SUMMARY_CHARS = 80;

const VAGUE = [
  /^(i )?(did|done|completed?|finished)( the| my)?( task| work| it)?\.?$/i,
  /^ok(ay)?[,.!]?\s*(done|completed?|finished)?\.?$/i,
  /^(task|work|everything|all) (is )?(done|complete|completed|finished)\.?$/i,
  /^(n\/a|none|nothing|-|tbd|todo)\.?$/i,
];
const THOUGHT_PROCESS = /^(let me|i will|i'll|i am going to|i'm going to|i think|first,? i|now i|next,? i|hmm|okay,? so)\b/i;
const FILE_REF = /[\w-]+\.[a-z0-9]{1,6}\b|[\w.-]+\/[\w./-]+|`[^`]+`/i;
const NO_CHANGES = /\b(no (files?|code|changes?)|nothing (was )?(changed|modified)|none)\b/i;
const RESULT_WORD =
  /\b(pass(ed|es|ing)?|fail(ed|s|ing)?|succeed(ed|s)?|ran|run|exit(ed)?|errors?|warnings?|tests?|build|built|compil\w*|lint\w*|check(ed)?|verified|confirmed|output|not (run|verified))\b/i;

/** Splits "### Heading" sections (2–4 #'s) into a map of heading -> body lines. */
export function parseSections(summary: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of summary.split('\n')) {
    // The summary is the model's text: lines are capped before these backtracking patterns run.
    const heading = /^\s*#{2,4}\s+(.+?)\s*:?\s*$/.exec(capForMatch(line));
    if (heading) {
      current = [];
      sections.set(normalize(heading[1]), current);
    } else if (current && line.trim()) {
      current.push(line.trim());
    }
  }
  return sections;
}

/** Problems with the summary; an empty array means it is accepted. */
export function validateSummary(summary: string, todos: AgentTodo[]): string[] {
  const problems: string[] = [];
  const text = summary.trim();
  if (text.length < MIN_SUMMARY_CHARS) problems.push(`too short (${text.length} chars; at least ${MIN_SUMMARY_CHARS})`);
  if (THOUGHT_PROCESS.test(text)) problems.push('reads like a thought process; state what was done');
  const sections = parseSections(text);
  const required = todos.length > 0 ? [...SUMMARY_SECTIONS, TODO_SECTION] : [...SUMMARY_SECTIONS];
  for (const name of required) {
    const body = sections.get(normalize(name));
    if (!body) {
      problems.push(`missing "### ${name}" section`);
      continue;
    }
    const joined = body.join(' ').replace(/^[-*]\s*/, '').trim();
    if (!joined || VAGUE.some((re) => re.test(joined))) problems.push(`"### ${name}" is empty or vague`);
  }
  const changes = sections.get(normalize('Changes Made'))?.join('\n') ?? '';
  if (changes && !anyLine(FILE_REF, changes) && !anyLine(NO_CHANGES, changes)) {
    problems.push('"### Changes Made" names no file (use "- path: what changed", or "- No files changed")');
  }
  const verification = sections.get(normalize('Verification'))?.join('\n') ?? '';
  if (verification && !anyLine(RESULT_WORD, verification)) {
    problems.push('"### Verification" gives no result (which build/test/check ran and what it showed)');
  }
  const progress = sections.get(normalize(TODO_SECTION));
  if (todos.length > 0 && progress) problems.push(...todoProgressProblems(progress, todos));
  return problems;
}

// Words a summary may use for each todo status (the model writes prose, not enum values).
const STATUS_WORDS: Array<[AgentTodo['status'], RegExp]> = [
  // Checked in this order: "not started" is pending before "started" can read as in progress.
  ['cancelled', /\b(cancell?ed|skipped|dropped|abandoned|not needed|won'?t do)\b/i],
  ['pending', /\b(pending|not (yet )?(started|done)|open|todo|to do|remaining)\b/i],
  ['in_progress', /\b(in[ _-]?progress|ongoing|started|partly|partially)\b/i],
  ['completed', /\b(completed?|done|finished|fixed|passed)\b|✅|✔|\[x\]/i],
];

/** The status a Todo Progress line states, or null when it names none. */
export function statedStatus(line: string): AgentTodo['status'] | null {
  for (const [status, re] of STATUS_WORDS) if (re.test(line)) return status;
  return null;
}

/**
 * Each todo must appear in Todo Progress with the status it really has: a line naming the todo
 * (else the bullet at the same position) whose status word matches. Counting bullets would accept
 * "- Run tests: completed" for a todo that is still in progress.
 */
function todoProgressProblems(lines: string[], todos: AgentTodo[]): string[] {
  const bullets = lines.filter((l) => /^([-*]|\d+[.)])\s+/.test(l));
  const flat = (t: string) => t.toLowerCase().replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim();
  const problems: string[] = [];
  todos.forEach((todo, i) => {
    const content = flat(todo.content);
    const line = bullets.find((l) => flat(l).includes(content)) ?? bullets[i];
    const label = `"${todo.content}"`;
    if (!line) {
      problems.push(`"### ${TODO_SECTION}" does not list todo ${label}`);
      return;
    }
    // The todo's own words must not count as its status ("Fix the open bug"), so strip them first.
    const said = statedStatus(flat(line).replace(content, ' '));
    if (!said) problems.push(`"### ${TODO_SECTION}" gives no status for todo ${label} (it is ${todo.status.replace('_', ' ')})`);
    else if (said !== todo.status) {
      problems.push(`"### ${TODO_SECTION}" says todo ${label} is ${said.replace('_', ' ')}, but it is ${todo.status.replace('_', ' ')}; update write_todos or the summary`);
    }
  });
  return problems;
}

function anyLine(re: RegExp, text: string): boolean {
  return text.split('\n').some((line) => re.test(capForMatch(line)));
}

function normalize(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z ]/g, '').trim();
}
