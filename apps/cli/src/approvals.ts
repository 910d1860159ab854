import { createInterface } from 'node:readline/promises';
import type { PermissionDecision } from '@h/contracts/session-api';

export type Answer = 'yes' | 'no' | 'always';

/**
 * Asks at the terminal (stdin/stderr, so stdout stays the run's output) until the person types
 * y, n or a. Ctrl-D or an interrupted prompt counts as "no".
 */
export async function askAtTerminal(question: string): Promise<Answer> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    for (;;) {
      const answer = (await rl.question(`${question} [y]es / [n]o / [a]lways for this run: `).catch(() => 'n')).trim().toLowerCase();
      if (['y', 'yes'].includes(answer)) return 'yes';
      if (['n', 'no'].includes(answer)) return 'no';
      if (['a', 'always'].includes(answer)) return 'always';
    }
  } finally {
    rl.close();
  }
}

export function decisionFor(answer: Answer): PermissionDecision {
  return answer === 'no' ? { behavior: 'deny', message: 'Denied at the terminal (h run).' } : { behavior: 'allow' };
}
