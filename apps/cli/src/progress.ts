import type { EventEnvelope } from '@h/contracts/agent-events';

/** Where the CLI writes, and whether it is a terminal (a spinner only there). */
export interface Output {
  write(text: string): void;
  isTTY: boolean;
  color: boolean;
}

export function terminalOutput(stream: NodeJS.WriteStream, noColor: boolean): Output {
  return { write: (t) => void stream.write(t), isTTY: stream.isTTY === true, color: stream.isTTY === true && !noColor };
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const MAX_ARG_CHARS = 100;

export function paint(out: Output, code: number, text: string): string {
  return out.color ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** One line for a tool call: the command, the path, or the tool and its first argument. */
export function describeToolCall(name: string, rawArgs: string): string {
  let args: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(rawArgs) as unknown;
    if (parsed && typeof parsed === 'object') args = parsed as Record<string, unknown>;
  } catch {
    /* the model's raw text: show the name only */
  }
  const pick = (k: string) => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
  let detail = pick('command') !== undefined ? `$ ${pick('command')}` : pick('path') ?? pick('old_path') ?? pick('pattern') ?? pick('query') ?? '';
  if (name === 'rename_file' && pick('old_path') && pick('new_path')) detail = `${pick('old_path')} → ${pick('new_path')}`;
  detail = detail.replace(/\s+/g, ' ').trim();
  if (detail.length > MAX_ARG_CHARS) detail = `${detail.slice(0, MAX_ARG_CHARS - 1)}…`;
  return detail ? `${name} ${detail}` : name;
}

/**
 * Shows a run as it goes: one line per tool call (and per failed call), the agent's text replies,
 * and on a terminal a spinner saying what it waits for. Lines go above the spinner.
 */
export class ProgressView {
  private frame = 0;
  private status = 'starting';
  private timer: NodeJS.Timeout | null = null;
  private spinnerShown = false;

  constructor(private readonly out: Output) {}

  start(status: string): void {
    this.status = status;
    if (!this.out.isTTY || this.timer) return;
    this.timer = setInterval(() => this.draw(), 100);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clear();
  }

  /** A line above the spinner. */
  line(text: string): void {
    this.clear();
    this.out.write(`${text}\n`);
    if (this.timer) this.draw();
  }

  setStatus(status: string): void {
    this.status = status;
  }

  /** Renders one event of the run. */
  event(e: EventEnvelope): void {
    const data = (e.data ?? {}) as Record<string, any>;
    switch (e.type) {
      case 'run.started':
        this.setStatus(`working (${data.model})`);
        break;
      case 'tool.start':
        if (data.name === 'write_summary' || data.name === 'task_complete' || data.name === 'write_todos') break;
        this.line(`${paint(this.out, 36, '▸')} ${describeToolCall(data.name, data.arguments ?? '')}${data.editedByUser ? paint(this.out, 33, ' (edited by a person)') : ''}`);
        this.setStatus(`running ${data.name}`);
        break;
      case 'tool.end':
        if (data.isError) this.line(`  ${paint(this.out, 31, '✗')} ${firstLine(String(data.result ?? ''))}`);
        this.setStatus('thinking');
        break;
      case 'message.assistant':
        if (typeof data.content === 'string' && data.content.trim() && !data.toolCalls?.length) this.line(data.content.trim());
        break;
      case 'permission.requested':
        this.setStatus(`waiting for approval of ${data.toolName}`);
        break;
      case 'permission.resolved':
        this.line(`  ${data.behavior === 'allow' ? paint(this.out, 32, '✓ allowed') : paint(this.out, 31, '✗ denied')} ${data.toolName}`);
        break;
      case 'compaction':
        this.line(paint(this.out, 2, '(history compacted)'));
        break;
      case 'error':
        this.line(paint(this.out, 33, `! ${data.message ?? data.code}`));
        break;
    }
  }

  private draw(): void {
    this.clear();
    this.frame = (this.frame + 1) % FRAMES.length;
    this.out.write(`${paint(this.out, 36, FRAMES[this.frame])} ${this.status}`);
    this.spinnerShown = true;
  }

  private clear(): void {
    if (!this.spinnerShown) return;
    this.out.write('\r\u001b[2K');
    this.spinnerShown = false;
  }
}

export function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
