// What an MCP tool call hands back and records. The agent keeps an oversize result aside for
// read_command_output (libs/agent spill.ts); an MCP client has no such tool here, so the same
// threshold cuts the middle out and says so, and the client narrows its next call.
import { SPILL_THRESHOLD_BYTES } from '@h/agent';

const HEAD_BYTES = 40_000;
const TAIL_BYTES = 8_000;
/** Longest string argument kept in the audit log (longer ones are cut and their length noted). */
const AUDIT_STRING_CHARS = 300;
/** File contents and edit texts: recorded by length only (they may hold anything, secrets included). */
const CONTENT_ARGUMENTS = new Set(['content', 'old_string', 'new_string']);

/** The text as is up to SPILL_THRESHOLD_BYTES; beyond it the head and tail with what was left out. */
export function capResultText(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= SPILL_THRESHOLD_BYTES) return text;
  const buf = Buffer.from(text, 'utf8');
  // toString at a cut inside a character drops just that character's partial bytes (U+FFFD).
  const head = buf.subarray(0, HEAD_BYTES).toString('utf8').replace(/\uFFFD$/, '');
  const tail = buf.subarray(bytes - TAIL_BYTES).toString('utf8').replace(/^\uFFFD/, '');
  const omitted = bytes - HEAD_BYTES - TAIL_BYTES;
  return `${head}\n… [${omitted.toLocaleString('en-US')} of ${bytes.toLocaleString('en-US')} bytes left out: MCP results are cut at ${SPILL_THRESHOLD_BYTES.toLocaleString('en-US')} bytes; read a smaller range (offset, limit) or narrow the command] …\n${tail}`;
}

/** The call's arguments for the audit log: paths and commands (cut when long), contents by length. */
export function auditArguments(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (typeof v === 'string' && CONTENT_ARGUMENTS.has(k)) out[k] = `(${v.length} characters)`;
    else if (typeof v === 'string' && v.length > AUDIT_STRING_CHARS) out[k] = `${v.slice(0, AUDIT_STRING_CHARS)}… (${v.length} characters)`;
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null) out[k] = v;
    else out[k] = `(${Array.isArray(v) ? 'array' : typeof v})`;
  }
  return out;
}
