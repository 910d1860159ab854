import { MATCH_YIELD_EVERY_MS } from './pattern-limits';

/**
 * A wall-clock budget for a loop of matches that runs on a shared event loop: `pace()` yields a
 * turn (setImmediate) whenever the loop has held the thread for MATCH_YIELD_EVERY_MS, and
 * `expired` tells the loop to stop with a partial answer. Each single match is already bounded
 * (RE2, capped lines), so the loop never holds the thread much longer than one slice.
 */
export class MatchBudget {
  private readonly deadline: number;
  private sliceStart = Date.now();

  constructor(readonly budgetMs: number) {
    this.deadline = Date.now() + budgetMs;
  }

  get expired(): boolean {
    return Date.now() >= this.deadline;
  }

  /** Yields to the event loop when this slice is used up. Cheap to call once per line. */
  async pace(): Promise<void> {
    if (Date.now() - this.sliceStart < MATCH_YIELD_EVERY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = Date.now();
  }
}
