import { Injectable } from '@nestjs/common';
import { TERMINAL_HISTORY_MAX_BYTES, TERMINAL_HISTORY_TTL_MS, type TerminalInfo } from '@h/contracts';
import { RedisService } from '../redis.service';

// Appends a chunk that starts at ARGV[2] and ends at ARGV[3] (positions in the terminal's output,
// as sandboxd numbers it) unless the stored tail already reaches that far: several api processes
// attached to one terminal all offer the same output, and only the first copy is kept. Returns -2
// when written, -1 when nothing was new, or the stored end when the chunk overlaps it (the caller
// cuts what is stored and offers the rest; positions count UTF-16 units, which Lua cannot).
// The tail is trimmed to ARGV[5] bytes; the reader drops a UTF-8 sequence cut at the front.
const APPEND = `
if redis.call('HEXISTS', KEYS[2], ARGV[1] .. ':gone') == 1 then return -1 end
local stored = tonumber(redis.call('HGET', KEYS[2], ARGV[1] .. ':end') or '0')
local s = tonumber(ARGV[2])
local e = tonumber(ARGV[3])
if e <= stored then return -1 end
if s < stored then return stored end
local n = redis.call('APPEND', KEYS[1], ARGV[4])
local max = tonumber(ARGV[5])
if n > max then redis.call('SET', KEYS[1], redis.call('GETRANGE', KEYS[1], n - max, -1)) end
redis.call('HSET', KEYS[2], ARGV[1] .. ':end', e)
redis.call('HSETNX', KEYS[2], ARGV[1] .. ':info', ARGV[7])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return -2`;

// Saves a terminal's info unless it was dismissed (a `terminal.close` racing its end elsewhere).
const SAVE_INFO = `
if redis.call('HEXISTS', KEYS[1], ARGV[1] .. ':gone') == 1 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1] .. ':info', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** A terminal as saved: its info (with `ended` once it ended) and where its output stands. */
export interface SavedTerminal {
  info: TerminalInfo;
  end: number;
}

/**
 * Terminal history in Redis (issue 10 point 4): per workspace one hash (`<id>:info`, `<id>:end`)
 * and per terminal one string holding the last TERMINAL_HISTORY_MAX_BYTES of its output, both
 * expiring TERMINAL_HISTORY_TTL_MS after the last write. Survives api and sandbox restarts.
 */
@Injectable()
export class TerminalHistoryRepository {
  constructor(private readonly redis: RedisService) {}

  private metaKey(workspaceId: string): string {
    return this.redis.key('terminal-history', workspaceId);
  }

  private outputKey(workspaceId: string, terminalId: string): string {
    return this.redis.key('terminal-output', workspaceId, terminalId);
  }

  /** Keeps `data`, the output from `end - data.length` to `end`, once across all api processes. */
  async append(info: TerminalInfo, data: string, end: number): Promise<void> {
    let start = end - data.length;
    for (let attempt = 0; attempt < 2 && data; attempt++) {
      const r = Number(
        await this.redis.client.eval(APPEND, 2, this.outputKey(info.workspaceId, info.id), this.metaKey(info.workspaceId),
          info.id, start, end, data, TERMINAL_HISTORY_MAX_BYTES, TERMINAL_HISTORY_TTL_MS, JSON.stringify(info)),
      );
      if (r < 0) return;
      data = data.slice(r - start);
      start = r;
    }
  }

  /** Every saved terminal of the workspace. */
  async list(workspaceId: string): Promise<SavedTerminal[]> {
    const h = await this.redis.client.hgetall(this.metaKey(workspaceId));
    const out: SavedTerminal[] = [];
    for (const [field, value] of Object.entries(h)) {
      if (!field.endsWith(':info')) continue;
      const id = field.slice(0, -':info'.length);
      try {
        out.push({ info: JSON.parse(value) as TerminalInfo, end: Number(h[`${id}:end`] ?? 0) });
      } catch {
        // a damaged entry is skipped, never fatal to the list
      }
    }
    return out;
  }

  /** The saved output (whole UTF-8 characters only) and info, or null when none is kept. */
  async read(workspaceId: string, terminalId: string): Promise<(SavedTerminal & { text: string }) | null> {
    const [[, info], [, end], [, buf]] = (await this.redis.client
      .multi()
      .hget(this.metaKey(workspaceId), `${terminalId}:info`)
      .hget(this.metaKey(workspaceId), `${terminalId}:end`)
      .getBuffer(this.outputKey(workspaceId, terminalId))
      .exec()) as [[unknown, string | null], [unknown, string | null], [unknown, Buffer | null]];
    if (!info) return null;
    let bytes = buf ?? Buffer.alloc(0);
    let i = 0;
    while (i < bytes.length && i < 3 && (bytes[i] & 0xc0) === 0x80) i++;
    bytes = bytes.subarray(i);
    return { info: JSON.parse(info) as TerminalInfo, end: Number(end ?? 0), text: bytes.toString('utf8') };
  }

  /** Records a terminal's info (e.g. that it ended), keeping its output; not for a dismissed one. */
  async saveInfo(info: TerminalInfo): Promise<void> {
    await this.redis.client.eval(SAVE_INFO, 1, this.metaKey(info.workspaceId), info.id, JSON.stringify(info), TERMINAL_HISTORY_TTL_MS);
  }

  /**
   * Forgets a terminal's history. `dismissed`: it was closed on purpose, so nothing may save it
   * again (its end, reported to every api process, would otherwise bring it back as ended).
   */
  async remove(workspaceId: string, terminalId: string, dismissed = false): Promise<void> {
    const tx = this.redis.client.multi().hdel(this.metaKey(workspaceId), `${terminalId}:info`, `${terminalId}:end`).del(this.outputKey(workspaceId, terminalId));
    if (dismissed) tx.hset(this.metaKey(workspaceId), `${terminalId}:gone`, '1').pexpire(this.metaKey(workspaceId), TERMINAL_HISTORY_TTL_MS);
    await tx.exec();
  }
}
