import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EventEnvelope, H2cStreamFrame } from '@h/contracts';
import { apiTokenFrom, type Principal } from '@h/identity';
import { SseStreamService, sseSink, type StreamSink } from '@h/sessions';
import { framesOf, TERMINAL_EVENTS } from './h2c-frames';
import { H2cTaskService } from './h2c-task.service';

/** How long a client that was told why the stream ends may still read before it is cut off. */
const HANG_UP_GRACE_MS = 1000;

const frame = (f: H2cStreamFrame) => `data: ${JSON.stringify(f)}\n\n`;

/**
 * The task's frames on an SSE response: H's sink (its buffer measure and drain) with h2c's
 * data-only frames, only the task's own run (a follow-up typed in the IDE is another run), and an
 * end after the run's terminal event. Requests answered before the client connected are left out
 * of the replay: asking a client again what was decided (maybe in the IDE) only earns a 409.
 */
function taskSink(res: Response, task: { id: string; runId: string }, answered: Set<string>, ended: () => void): StreamSink {
  const base = sseSink(res, { failed: ended });
  let finished = false;
  return {
    ...base,
    event: (e: EventEnvelope) => {
      if (finished || e.runId !== task.runId) return !res.writableNeedDrain;
      let ok = true;
      for (const f of framesOf(task.id, e)) {
        if (f.type === 'permission_request' && answered.has(f.request_id)) continue;
        ok = res.write(frame(f));
      }
      if (TERMINAL_EVENTS.includes(e.type)) {
        finished = true;
        ended();
      }
      return ok;
    },
    ephemeral: () => undefined,
    end: (reason) => {
      res.write(frame({ type: 'error', reason: `${reason.code}: ${reason.message}` }));
      res.end();
      setTimeout(() => res.destroy(), HANG_UP_GRACE_MS).unref();
    },
  };
}

@Injectable()
export class H2cStreamService {
  constructor(
    private readonly tasks: H2cTaskService,
    private readonly sse: SseStreamService,
  ) {}

  /** `connected`, then the whole task from the start of its log, then live until it ends. */
  async stream(principal: Principal, taskId: string | undefined, req: Request, res: Response): Promise<void> {
    const { task } = await this.tasks.readable(principal, taskId);
    const answered = await this.tasks.answeredRequests(task);
    await this.sse.serve(req, res, {
      sessionId: task.sessionId,
      after: 0,
      principal,
      credentials: { bearer: apiTokenFrom(req.headers.authorization, true) },
      sink: (r, ended) => taskSink(r, task, answered, ended),
      preamble: frame({ type: 'connected', taskId: task.id }),
    });
  }
}
