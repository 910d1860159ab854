import { Command, CommanderError, Option } from 'commander';
import { RUN_LIST_FILTERS, WORKSPACE_RUNS_MAX_LIMIT } from '@h/contracts/bot-api';
import { PERMISSION_MODES } from '@h/contracts/session-api';
import { settingsPlace } from '@h/contracts/settings-sections';
import * as commands from './commands';
import { CliError, EXIT, EXIT_CODES_HELP, type ExitCode } from './exit-codes';

declare const H_CLI_VERSION: string;

const ENV_HELP = `Environment:
  H_URL, H_TOKEN   H's URL and an API token (win over what \`h login\` saved)
  H_WORKSPACE      the workspace --workspace defaults to (a name or an id)
  H_CONFIG_DIR     where config.json lives (default $XDG_CONFIG_HOME/h or ~/.config/h)
  CI               set: never ask at the terminal (a run that needs approval exits 4)
  NO_COLOR         set: no colours`;

const EXAMPLES = `Examples:
  h login --url https://h.example.com --token "$H_TOKEN"
  h run "The failing test in test/math.test.js needs fixing." --workspace calc --wait
  h run "Update the changelog" --workspace calc --wait --json --mode bypass > result.json
  h runs --workspace calc --status active
  h logs RUN_ID --follow
  h diff RUN_ID | git apply`;

function program(): Command {
  const h = new Command('h')
    .description("H's command line: start agent runs, follow them, read their logs and diffs (CI jobs and scripts).")
    .version(typeof H_CLI_VERSION === 'string' ? H_CLI_VERSION : '0.0.0-dev', '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', `\n${EXIT_CODES_HELP}\n\n${ENV_HELP}\n\n${EXAMPLES}\n`)
    // Commander's own errors (unknown option, missing argument) are usage errors: exit 2.
    .exitOverride();

  h.command('login')
    .description('Check a token against H and save URL and token to ~/.config/h/config.json (mode 0600)')
    .requiredOption('--url <url>', "H's URL, e.g. https://h.example.com")
    .requiredOption('--token <token>', `an API token (${settingsPlace('tokens')}); "-" reads it from stdin`)
    .option('--workspace <name-or-id>', 'a default workspace for run and runs')
    .addHelpText('after', '\nEnvironment variables H_URL and H_TOKEN, when set, win over the saved values.')
    .action(async (opts) => done(await commands.login(opts)));

  h.command('whoami')
    .description('Who the token acts as, on which H, in which teams')
    .option('--json', 'print JSON')
    .action(async (opts) => done(await commands.whoami(opts)));

  h.command('run')
    .description('Start an agent run in a workspace (a new session with the prompt as its first message)')
    .argument('<prompt>', 'what the agent should do')
    .option('-w, --workspace <name-or-id>', 'the workspace (default H_WORKSPACE or the saved one)')
    .option('--wait', 'follow the run until it ends: progress, approvals, the summary; the exit code says how it ended')
    .option('--json', 'print the run result as JSON on stdout, nothing else (with --wait: at the end)')
    .addOption(new Option('--mode <mode>', 'approve: ask before commands, writes and deletes; bypass: never ask').choices([...PERMISSION_MODES]))
    .option('--step-mode', 'step by step: a plan the server locks, then one code-writer sub-agent per step; the summary lists every step')
    .option('--model <id>', 'a model id of the catalog (default: the instance default)')
    .option('--preset <id-or-name>', "one of the team's model presets (not with --model)")
    .option('--title <title>', "the session's title (default: the prompt's first line)")
    .option('--client-run-id <id>', 'makes the call idempotent: a retried CI step with the same id gets the same run')
    .option('--no-input', 'never ask at the terminal (as in CI): a needed approval exits 4')
    .addHelpText(
      'after',
      `\nWith --wait, approvals are asked at the terminal (y/n/a = yes, no, always for the rest of this run)\nwhen stdin and stderr are terminals and CI is not set; otherwise the run keeps waiting in H and h exits 4.\n\n${EXIT_CODES_HELP}\n`,
    )
    .action(async (prompt, opts) => done(await commands.run(prompt, opts)));

  h.command('runs')
    .description("List a workspace's runs, newest first")
    .option('-w, --workspace <name-or-id>', 'the workspace (default H_WORKSPACE or the saved one)')
    .addOption(new Option('--status <status>', 'only runs with this status (active: queued, running or waiting; finished: the rest)').choices([...RUN_LIST_FILTERS]))
    .option('--limit <n>', `at most this many (1-${WORKSPACE_RUNS_MAX_LIMIT}, default 20)`, positiveInt)
    .option('--json', 'print JSON')
    .action(async (opts) => done(await commands.runs(opts)));

  h.command('logs')
    .description("A run's log: the prompt, each tool call, the agent's replies, the outcome")
    .argument('<run>', 'the run id')
    .option('-f, --follow', 'keep following until the run ends')
    .option('--json', 'print the events as JSON lines')
    .action(async (runId, opts) => done(await commands.logs(runId, opts)));

  h.command('diff')
    .description("The unified diff of a run's changes (git format: pipe it to git apply)")
    .argument('<run>', 'the run id')
    .action(async (runId) => done(await commands.diff(runId)));

  h.command('cancel')
    .description('Cancel a queued, running or waiting run')
    .argument('<run>', 'the run id')
    .action(async (runId) => done(await commands.cancel(runId)));

  return h;
}

function positiveInt(value: string): string {
  if (!/^[1-9]\d{0,2}$/.test(value) || Number(value) > WORKSPACE_RUNS_MAX_LIMIT) {
    throw new CliError(`--limit must be a whole number from 1 to ${WORKSPACE_RUNS_MAX_LIMIT}`, EXIT.usage);
  }
  return value;
}

let exitCode: ExitCode = EXIT.done;
function done(code: ExitCode): void {
  exitCode = code;
}

async function main(argv: string[]): Promise<void> {
  try {
    await program().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here too, with commander's own code 0.
      process.exitCode = err.exitCode === 0 ? EXIT.done : EXIT.usage;
      return;
    }
    if (err instanceof CliError) {
      process.stderr.write(`h: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`h: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = EXIT.failed;
    return;
  }
  process.exitCode = exitCode;
}

// `h runs | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

void main(process.argv);
