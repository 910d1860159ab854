import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { Prisma } from '../generated/client';

/** What the event log keeps about a stored output: enough to find it and to say how big it is. */
export interface ToolOutputRef {
  /** N of `[cmd #N]`, per session. */
  number: number;
  label: string;
  bytes: number;
  truncated: boolean;
}

export interface ToolOutputRecord extends ToolOutputRef {
  sessionId: string;
  runId: string | null;
  callId: string | null;
  content: string;
  createdAt: Date;
}

export interface ToolOutputSlice extends ToolOutputRef {
  /** Byte offset of `content` in the full text (moved forward past a split UTF-8 character). */
  offset: number;
  content: string;
  /** Where the next slice starts; null at the end. */
  nextOffset: number | null;
}

export interface NewToolOutput {
  sessionId: string;
  runId?: string | null;
  callId?: string | null;
  label: string;
  /** Already cut to the caller's cap; stored as given. */
  content: string;
  truncated: boolean;
}

const NUMBER_RETRIES = 5;

@Injectable()
export class ToolOutputRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Stores one output under the session's next number. A session runs one run at a time, so
   * numbers rarely race; a unique-key conflict (a second writer) just takes the next one.
   */
  async create(input: NewToolOutput): Promise<ToolOutputRef> {
    const bytes = Buffer.byteLength(input.content, 'utf8');
    for (let attempt = 0; ; attempt++) {
      try {
        const rows = await this.prisma.$queryRaw<Array<{ number: number }>>`
          INSERT INTO "ToolOutput" ("id", "sessionId", "number", "runId", "callId", "label", "bytes", "truncated", "content")
          SELECT gen_random_uuid(), ${input.sessionId}::uuid, COALESCE(MAX("number"), 0) + 1, ${input.runId ?? null}::uuid,
                 ${input.callId ?? null}::text, ${input.label}, ${bytes}::int, ${input.truncated}, ${input.content}
          FROM "ToolOutput" WHERE "sessionId" = ${input.sessionId}::uuid
          RETURNING "number"`;
        return { number: Number(rows[0].number), label: input.label, bytes, truncated: input.truncated };
      } catch (err) {
        const duplicate =
          (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') || String((err as Error).message).includes('ToolOutput_sessionId_number_key');
        if (!duplicate || attempt >= NUMBER_RETRIES) throw err;
      }
    }
  }

  async find(sessionId: string, number: number): Promise<ToolOutputRecord | null> {
    return this.prisma.toolOutput.findUnique({
      where: { sessionId_number: { sessionId, number } },
      select: { sessionId: true, number: true, runId: true, callId: true, label: true, bytes: true, truncated: true, content: true, createdAt: true },
    });
  }

  /**
   * A byte range of the output, cut in Postgres so a 10 MB text never travels whole for one page.
   * The range is widened to whole UTF-8 characters: a start inside a character moves forward to
   * the next one, an end inside one stops before it.
   */
  async slice(sessionId: string, number: number, offset: number, limit: number): Promise<ToolOutputSlice | null> {
    // Three bytes of slack on either side are enough to find character boundaries.
    const from = Math.max(0, offset);
    const rows = await this.prisma.$queryRaw<Array<{ label: string; bytes: number; truncated: boolean; chunk: Buffer | Uint8Array }>>`
      SELECT "label", "bytes", "truncated", substring(convert_to("content", 'UTF8') FROM ${from + 1}::int FOR ${limit + 4}::int) AS chunk
      FROM "ToolOutput" WHERE "sessionId" = ${sessionId}::uuid AND "number" = ${number}::int`;
    const row = rows[0];
    if (!row) return null;
    const chunk = Buffer.from(row.chunk);
    const isContinuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;
    let start = 0;
    while (start < chunk.length && start < 4 && isContinuation(chunk[start])) start++;
    let end = Math.min(chunk.length, start + limit);
    // Never cut a character: step back to its lead byte when the byte after the end continues it.
    while (end > start && end < chunk.length && isContinuation(chunk[end])) end--;
    if (end === start && chunk.length > start) {
      // A limit smaller than one character still returns that character.
      end = start + 1;
      while (end < chunk.length && isContinuation(chunk[end])) end++;
    }
    const realOffset = from + start;
    const next = realOffset + (end - start);
    return {
      number,
      label: row.label,
      bytes: Number(row.bytes),
      truncated: row.truncated,
      offset: realOffset,
      content: chunk.subarray(start, end).toString('utf8'),
      nextOffset: next < Number(row.bytes) ? next : null,
    };
  }
}
