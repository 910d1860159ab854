import { TERMINAL_PREVIEWS_MAX } from '@h/contracts';
import { detectLoopbackUrls, servesHtml } from '@h/tools';

/** Output this far back is looked at again with each chunk, for a URL split over two chunks. */
const PREVIEW_CARRY_CHARS = 1000;

/** Runs a command inside the terminal's sandbox and returns its stdout (the page check). */
export type SandboxExec = (command: string, timeoutMs: number) => Promise<string>;

/**
 * Servers started in one terminal (issue 10's URL detection, in any terminal, not only while
 * run_in_terminal waits): each loopback URL with a port is asked once, inside the sandbox, whether
 * it serves a page; those that do are kept (for clients that attach later) and announced. The
 * patterns are linear-time over capped lines, and at most TERMINAL_PREVIEWS_MAX URLs per terminal
 * are asked about, so no output a sandbox prints can make the api do unbounded work.
 */
export class TerminalPreviews {
  /** URLs that serve a page, in the order they were found. */
  readonly urls: string[] = [];
  private readonly checked = new Set<string>();
  /** The tail of the output already scanned. */
  private carry = '';

  constructor(
    private readonly exec: SandboxExec,
    /** False once the terminal or its workspace connection is gone: late answers are dropped. */
    private readonly alive: () => boolean,
    private readonly found: (url: string) => void,
    private readonly failed: (err: unknown) => void,
  ) {}

  scan(data: string): void {
    if (this.checked.size >= TERMINAL_PREVIEWS_MAX) return;
    const window = this.carry + data;
    this.carry = window.slice(-PREVIEW_CARRY_CHARS);
    if (!window.includes('://')) return;
    for (const url of detectLoopbackUrls(window)) {
      if (this.checked.has(url) || this.checked.size >= TERMINAL_PREVIEWS_MAX) continue;
      this.checked.add(url);
      void servesHtml(url, { exec: this.exec, aborted: () => !this.alive() })
        .then((html) => {
          if (!html || !this.alive()) return;
          this.urls.push(url);
          this.found(url);
        })
        .catch(this.failed);
    }
  }
}
