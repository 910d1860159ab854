// What `h` exits with, so a CI step can branch on the outcome (documented in `h --help`).
export const EXIT = {
  /** The run completed (or the command did what it was asked). */
  done: 0,
  /** The run failed. */
  failed: 1,
  /** Bad usage: an unknown option, a missing argument, a workspace or run that does not exist. */
  usage: 2,
  /** The run was cancelled. */
  cancelled: 3,
  /** The run waits for an approval and nobody can answer it here (no terminal, or CI). */
  needsApproval: 4,
  /** H could not be reached, or refused the token (network, auth, quota, server error). */
  unavailable: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0  done: the run completed (other commands: they did what was asked)
  1  the run failed
  2  usage error: bad option or argument, unknown workspace or run, not logged in
  3  the run was cancelled
  4  the run needs an approval and this is not an interactive terminal (or CI is set);
     the run keeps waiting: answer it in the IDE, or start runs with --mode bypass
  5  H could not be reached or refused the request (network, token, scope, quota, server error)`;

/** An error that ends the CLI with a message for a person and a given exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}
