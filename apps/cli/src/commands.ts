import type { EventEnvelope } from '@h/contracts/agent-events';
import type { CreateRunRequest, RunListFilter, RunResult, WorkspaceRunList } from '@h/contracts/bot-api';
import type { MeResponse } from '@h/contracts/identity-api';
import type { EventPage, PermissionMode } from '@h/contracts/session-api';
import { cliEnv } from '@h/config/cli';
import { ApiClient } from './api-client';
import { askAtTerminal } from './approvals';
import { loadSettings, normaliseUrl, readConfig, writeConfig, type Settings } from './config-store';
import { sessionEvents } from './event-stream';
import { CliError, EXIT, type ExitCode } from './exit-codes';
import { paint, ProgressView, terminalOutput, type Output } from './progress';
import { exitCodeOf, followRun, runPath } from './run-follower';
import { printReport } from './run-report';
import { resolveWorkspace } from './workspace-ref';

// What each command does; main.ts declares them (options, help) with commander.

const FINISHED = ['completed', 'failed', 'cancelled'];

function context(): { settings: Settings; client: ApiClient; out: Output; err: Output } {
  const settings = loadSettings();
  const noColor = cliEnv().NO_COLOR !== undefined;
  return { settings, client: new ApiClient(settings.url, settings.token), out: terminalOutput(process.stdout, noColor), err: terminalOutput(process.stderr, noColor) };
}

/** A person can answer prompts here: both ends are a terminal and no CI variable says otherwise. */
export function interactive(noInput: boolean): boolean {
  return !noInput && process.stdin.isTTY === true && process.stderr.isTTY === true && cliEnv().CI === undefined;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

export async function login(opts: { url: string; token: string; workspace?: string }): Promise<ExitCode> {
  const url = normaliseUrl(opts.url);
  const token = opts.token === '-' ? await readStdin() : opts.token;
  if (!token) throw new CliError('The token is empty.', EXIT.usage);
  const client = new ApiClient(url, token);
  const me = await client.get<MeResponse>('/api/v1/me');
  if (opts.workspace) await resolveWorkspace(client, opts.workspace);
  const saved = readConfig();
  const path = writeConfig({ url, token, ...(opts.workspace ? { workspace: opts.workspace } : saved.url === url && saved.workspace ? { workspace: saved.workspace } : {}) });
  process.stdout.write(`Logged in to ${url} as ${me.user.name} <${me.user.email}> (${me.via}); saved to ${path}\n`);
  return EXIT.done;
}

export async function whoami(opts: { json?: boolean }): Promise<ExitCode> {
  const { settings, client, out } = context();
  const me = await client.get<MeResponse>('/api/v1/me');
  if (opts.json) {
    out.write(JSON.stringify({ url: settings.url, workspace: settings.workspace ?? null, ...me }, null, 2) + '\n');
    return EXIT.done;
  }
  const teams = me.teams.map((t) => `${t.name} (${t.role})`).join(', ') || 'none';
  out.write(
    `${me.user.name} <${me.user.email}> at ${settings.url}, via ${me.via === 'token' ? 'an API token' : 'a browser session'} (from ${settings.source.token === 'env' ? 'H_TOKEN' : settings.configPath})\n` +
      // Through a token the roles are what the token may do (an owner's read-and-write token acts as a member).
      `teams${me.via === 'token' ? ' (as this token acts)' : ''}: ${teams}\n` +
      (settings.workspace ? `default workspace: ${settings.workspace}\n` : ''),
  );
  return EXIT.done;
}

export interface RunOptions {
  workspace?: string;
  wait?: boolean;
  json?: boolean;
  mode?: PermissionMode;
  stepMode?: boolean;
  model?: string;
  preset?: string;
  title?: string;
  clientRunId?: string;
  input: boolean;
}

export async function run(prompt: string, opts: RunOptions): Promise<ExitCode> {
  const { settings, client, out, err } = context();
  if (!prompt.trim()) throw new CliError('The prompt is empty: say what the agent should do, e.g. h run "fix the failing test".', EXIT.usage);
  const workspace = await resolveWorkspace(client, opts.workspace ?? settings.workspace);
  const body: CreateRunRequest = {
    prompt,
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.stepMode ? { stepMode: true } : {}),
    ...(opts.model ? { model: opts.model } : {}),
    ...(opts.preset ? { preset: opts.preset } : {}),
    ...(opts.title ? { title: opts.title } : {}),
    ...(opts.clientRunId ? { clientRunId: opts.clientRunId } : {}),
  };
  const created = await client.post<RunResult>(`/api/v1/workspaces/${workspace.id}/runs`, body);
  if (!opts.wait) {
    if (opts.json) out.write(JSON.stringify(created, null, 2) + '\n');
    else out.write(`${created.status} run ${created.id} in ${workspace.name}\nfollow it: h logs ${created.id} --follow\n`);
    return EXIT.done;
  }
  // Progress goes to stdout for people; with --json stdout holds only the result, so nothing else.
  const view = opts.json ? null : new ProgressView(out);
  if (!opts.json) out.write(`${paint(out, 2, `run ${created.id} in ${workspace.name} (${created.status})`)}\n`);
  view?.start(created.status === 'queued' ? `queued${created.position ? ` (#${created.position} in line)` : ''}` : 'starting');
  const canAsk = interactive(!opts.input);
  const onInterrupt = () => {
    view?.stop();
    err.write(`\nStopped following. The run goes on in H: h logs ${created.id} --follow to watch it.\n`);
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  let result: RunResult;
  try {
    result = await followRun(client, created, {
      view,
      ask: canAsk
        ? async (question, preview) => {
            view?.stop();
            if (preview) err.write(preview.split('\n').map((l) => `  ${l}`).join('\n') + '\n');
            const answer = await askAtTerminal(question);
            view?.start('thinking');
            return answer;
          }
        : null,
    });
  } finally {
    view?.stop();
    process.off('SIGINT', onInterrupt);
  }
  if (opts.json) out.write(JSON.stringify(result, null, 2) + '\n');
  else printReport(out, result, settings.url);
  const code = exitCodeOf(result);
  if (code === EXIT.needsApproval) {
    err.write(`h: the run needs an approval and ${canAsk ? 'nobody answered' : 'this is not an interactive terminal'}; it keeps waiting in H.\n`);
  }
  return code;
}

export async function runs(opts: { workspace?: string; status?: RunListFilter; limit?: string; json?: boolean }): Promise<ExitCode> {
  const { settings, client, out } = context();
  const workspace = await resolveWorkspace(client, opts.workspace ?? settings.workspace);
  const query = new URLSearchParams();
  if (opts.status) query.set('status', opts.status);
  if (opts.limit) query.set('limit', opts.limit);
  const list = await client.get<WorkspaceRunList>(`/api/v1/workspaces/${workspace.id}/runs${query.size ? `?${query}` : ''}`);
  if (opts.json) {
    out.write(JSON.stringify(list, null, 2) + '\n');
    return EXIT.done;
  }
  if (!list.items.length) {
    out.write(`No runs in ${workspace.name}${opts.status ? ` with status ${opts.status}` : ''}.\n`);
    return EXIT.done;
  }
  const width = Math.max(...list.items.map((r) => r.status.length));
  for (const r of list.items) {
    out.write(`${r.id}  ${r.status.padEnd(width)}  ${r.queuedAt.slice(0, 16).replace('T', ' ')}  ${r.title}\n`);
  }
  return EXIT.done;
}

export async function logs(runId: string, opts: { follow?: boolean; json?: boolean }): Promise<ExitCode> {
  const { client, out } = context();
  const result = await client.get<RunResult>(runPath(runId));
  const view = opts.json ? null : new ProgressView({ ...out, isTTY: false });
  const show = (e: EventEnvelope) => {
    if (e.runId !== runId) return;
    if (opts.json) out.write(JSON.stringify(e) + '\n');
    else if (e.type === 'message.user') out.write(`${paint(out, 1, '>')} ${(e.data as { content: string }).content}\n`);
    else view?.event(e);
  };
  if (opts.follow && !FINISHED.includes(result.status)) {
    // The stream replays the history, then goes live; a wait for approval just waits (answer it
    // in the IDE, or with `h run` at a terminal).
    for await (const e of sessionEvents(client, result.sessionId, 0)) {
      show(e);
      if (e.runId === runId && ['run.done', 'run.failed', 'run.cancelled'].includes(e.type)) break;
    }
  } else {
    let after = 0;
    for (;;) {
      const page = await client.get<EventPage>(`/api/v1/sessions/${result.sessionId}/events?after=${after}&limit=1000`);
      page.items.forEach(show);
      after = page.nextAfter;
      if (!page.hasMore) break;
    }
  }
  if (!opts.json) printReport(out, await client.get<RunResult>(runPath(runId)), client.url);
  return EXIT.done;
}

export async function diff(runId: string): Promise<ExitCode> {
  const { client, out } = context();
  out.write(await client.getText(`${runPath(runId)}/diff`));
  return EXIT.done;
}

export async function cancel(runId: string): Promise<ExitCode> {
  const { client, out } = context();
  const result = await client.post<{ status: string }>(`${runPath(runId)}/cancel`, {});
  out.write(`run ${runId}: ${result.status}\n`);
  return EXIT.done;
}
