import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { TERMINAL_HISTORY_ENDED_MAX, type TerminalAttached, type TerminalInfo } from '@h/contracts';
import { EventBusRepository, TerminalHistoryRepository } from '@h/db';

/** Output is written to Redis at most this often per terminal (a chatty build prints thousands of chunks). */
const FLUSH_MS = 250;

interface Pending {
  info: TerminalInfo;
  data: string;
  end: number;
  timer: NodeJS.Timeout;
}

/**
 * Terminal history kept server-side (issue 10 point 4): the api's PTY bridge hands over every
 * output chunk it sees; this batches them per terminal into TerminalHistoryRepository (Redis, by
 * position, so several api processes keep one copy). A terminal whose process is gone (exited,
 * its sandbox stopped or restarted) stays listed as ended, its saved output readable, until it is
 * dismissed with `terminal.close` or expires. Write failures are logged, never thrown: history is
 * a convenience and must not break a live terminal.
 */
@Injectable()
export class TerminalHistory implements OnModuleDestroy {
  private readonly logger = new Logger(TerminalHistory.name);
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly repo: TerminalHistoryRepository,
    private readonly bus: EventBusRepository,
  ) {}

  /** Calls `listener` in every api process when an ended terminal is dismissed in any. */
  onDismissed(listener: (ref: { workspaceId: string; terminalId: string }) => void): Promise<() => void> {
    return this.bus.onTerminalDismissed(listener);
  }

  /** Output from `end - data.length` to `end`. */
  write(info: TerminalInfo, data: string, end: number): void {
    if (!data) return;
    const key = `${info.workspaceId}/${info.id}`;
    const p = this.pending.get(key);
    if (p && p.end === end - data.length) {
      p.data += data;
      p.end = end;
      p.info = info;
      return;
    }
    if (p) void this.flush(key);
    const timer = setTimeout(() => void this.flush(key), FLUSH_MS);
    timer.unref();
    this.pending.set(key, { info, data, end, timer });
  }

  /** The terminal's process is gone: it stays listed as ended with its output (unless dismissed). */
  async ended(info: TerminalInfo, exitCode: number | null, signal: number | null): Promise<void> {
    await this.flush(`${info.workspaceId}/${info.id}`);
    await this.guard(async () => {
      await this.repo.saveInfo({ ...info, ended: { exitCode, signal, at: new Date().toISOString() } });
      const ended = (await this.repo.list(info.workspaceId)).filter((s) => s.info.ended).sort((a, b) => (b.info.ended?.at ?? '').localeCompare(a.info.ended?.at ?? ''));
      for (const old of ended.slice(TERMINAL_HISTORY_ENDED_MAX)) await this.repo.remove(info.workspaceId, old.info.id);
    });
  }

  /**
   * Saved terminals of the workspace that are not live; those not yet marked are marked ended now.
   * `recheck` runs first when there are such: the live list must be fresh before a terminal that
   * another api process may have opened a moment ago is taken for gone.
   */
  async endedBeside(workspaceId: string, isLive: (id: string) => boolean, recheck: () => Promise<void>): Promise<TerminalInfo[]> {
    const saved = (await this.guard(() => this.repo.list(workspaceId))) ?? [];
    if (saved.some((s) => !s.info.ended && !isLive(s.info.id))) await recheck();
    const out: TerminalInfo[] = [];
    for (const s of saved) {
      if (isLive(s.info.id)) continue;
      if (!s.info.ended) {
        // Its sandbox went away under it (stop, restart): no exit status is known.
        await this.ended(s.info, null, null);
        s.info = { ...s.info, ended: { exitCode: null, signal: null, at: new Date().toISOString() } };
      }
      out.push(s.info);
    }
    return out;
  }

  /** An ended terminal as an attach answers it: its saved output, read-only. */
  async attachEnded(workspaceId: string, terminalId: string): Promise<TerminalAttached | null> {
    const saved = await this.guard(() => this.repo.read(workspaceId, terminalId));
    if (!saved?.info.ended) return null;
    return { terminal: saved.info, data: saved.text, reset: true, end: saved.end, ended: saved.info.ended };
  }

  /** Whether a saved (ended) terminal exists; dismissing removes it for good. */
  async dismiss(workspaceId: string, terminalId: string): Promise<boolean> {
    const key = `${workspaceId}/${terminalId}`;
    const p = this.pending.get(key);
    if (p) {
      clearTimeout(p.timer);
      this.pending.delete(key);
    }
    const had = Boolean(await this.guard(() => this.repo.read(workspaceId, terminalId)));
    await this.guard(() => this.repo.remove(workspaceId, terminalId, true));
    if (had) await this.guard(() => this.bus.publishTerminalDismissed({ workspaceId, terminalId }));
    return had;
  }

  onModuleDestroy(): Promise<void> {
    return Promise.all([...this.pending.keys()].map((k) => this.flush(k))).then(() => undefined);
  }

  private async flush(key: string): Promise<void> {
    const p = this.pending.get(key);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(key);
    await this.guard(() => this.repo.append(p.info, p.data, p.end));
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      this.logger.warn({ err }, 'terminal history unavailable');
      return undefined;
    }
  }
}
