import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { waitFor } from '../../support/wait-for';
import { HttpClient, signedUpClient } from '../../support/http-client';
import { loadScenario, readWorkspaceFile, seedWorkspaceFiles } from '../console/console-helpers';
import { baseUrl, uniqueSuffix } from '../web/web-helpers';

// The `h` CLI the way a CI job uses it: the BUILT bundle (apps/cli/dist/h.js) as a child process,
// with no terminal, against the built api + worker of the e2e setup and the scripted model
// (fix-failing-test.json). It logs in, fixes the sample repository, reads the log and the diff,
// stops at an approval it cannot answer here, fails without a provider key, and refuses bad usage.

const ROOT = process.cwd();
const CLI = join(ROOT, 'apps/cli/dist/h.js');
const FIX_PROMPT = 'The failing test in test/math.test.js needs fixing.';
const RUN_TIMEOUT_MS = 180_000;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let configDir = '';

/** Runs `h` with no terminal (pipes), CI set, and the test's own config folder. */
function h(args: string[], env: Record<string, string> = {}, timeoutMs = RUN_TIMEOUT_MS): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const { H_URL: _u, H_TOKEN: _t, H_WORKSPACE: _w, ...inherited } = process.env;
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...inherited, CI: 'true', NO_COLOR: '1', H_CONFIG_DIR: configDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`h ${args.join(' ')} did not end within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('h CLI against a running H', () => {
  let owner: HttpClient;
  let teamId = '';
  let workspaceId = '';
  let workspaceName = '';
  let token = '';

  beforeAll(async () => {
    // The suite's build step builds it too; this keeps a lone run of this file honest.
    execFileSync('node', ['apps/cli/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
    configDir = mkdtempSync(join(tmpdir(), 'h-cli-e2e-'));
    const suffix = uniqueSuffix();
    ({ client: owner } = await signedUpClient(baseUrl(), `cli-${suffix}`));
    const team = await owner.post('/api/v1/teams', { name: `CLI ${suffix}` });
    teamId = team.body.id;
    expect((await owner.put(`/api/v1/teams/${teamId}/providers/deepseek`, { apiKey: `sk-cli-${suffix}` })).status).toBe(200);
    workspaceName = `calc-${suffix}`;
    const ws = await owner.post(`/api/v1/teams/${teamId}/workspaces`, { name: workspaceName });
    workspaceId = ws.body.id;
    await waitFor('workspace ready', async () => (await owner.get(`/api/v1/workspaces/${workspaceId}`)).body.status === 'ready', 120_000);
    seedWorkspaceFiles(workspaceId, loadScenario('fix-failing-test').fixture);
    const created = await owner.post(`/api/v1/teams/${teamId}/tokens`, { name: 'ci', scopes: ['read', 'write'] });
    expect(created.status).toBe(201);
    token = created.body.secret;
  });

  afterAll(() => {
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  it('should log in, keep the config private, and say who it is', async () => {
    const bad = await h(['login', '--url', baseUrl(), '--token', 'h_nope_nope']);
    expect(bad.code).toBe(5);
    expect(bad.stderr).toContain('refused the token');

    const login = await h(['login', '--url', baseUrl(), '--token', token, '--workspace', workspaceName]);
    expect([login.code, login.stderr]).toEqual([0, '']);
    const file = join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: baseUrl(), token, workspace: workspaceName });

    const who = await h(['whoami']);
    expect(who.code).toBe(0);
    expect(who.stdout).toContain(`at ${baseUrl()}, via an API token`);
    expect(who.stdout).toMatch(/^teams \(as this token acts\): .+ \((member|admin|owner)\)$/m);
    const json = await h(['whoami', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ via: 'token', teams: [{ id: teamId }] });
    // The environment wins over the saved token.
    expect((await h(['whoami'], { H_TOKEN: 'h_nope_nope' })).code).toBe(5);
  });

  it(
    'should fix the sample repository with `h run --wait`, print each tool call and the summary, and exit 0',
    async () => {
      const run = await h(['run', FIX_PROMPT, '--wait', '--mode', 'bypass', '--client-run-id', `fix-${workspaceId}`]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('▸ read_file src/math.js');
      expect(run.stdout).toContain('▸ run_command $ npm test');
      expect(run.stdout).toContain('▸ edit_file src/math.js');
      expect(run.stdout).toContain('✓ completed');
      expect(run.stdout).toContain('`add(a, b)` returned `a - b`; it now returns `a + b`.');
      expect(run.stdout).toContain('M src/math.js (+1 -1)');
      expect(readWorkspaceFile(workspaceId, 'src/math.js')).toContain('return a + b;');
      const runId = /run ([0-9a-f-]{36}) · h logs/.exec(run.stdout)?.[1] as string;
      expect(runId).toBeDefined();

      const diff = await h(['diff', runId]);
      expect(diff.code).toBe(0);
      expect(diff.stdout).toContain('--- a/src/math.js\n+++ b/src/math.js\n');
      expect(diff.stdout).toContain('-  return a - b;\n+  return a + b;\n');

      const logs = await h(['logs', runId]);
      expect(logs.code).toBe(0);
      expect(logs.stdout).toContain(`> ${FIX_PROMPT}`);
      expect(logs.stdout).toContain('▸ run_command $ npm test');
      const events = (await h(['logs', runId, '--json'])).stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['message.user', 'tool.start', 'tool.end', 'run.done']));

      const runs = await h(['runs', '--json']);
      expect(runs.code).toBe(0);
      expect(JSON.parse(runs.stdout).items).toEqual([expect.objectContaining({ id: runId, status: 'completed', workspaceId })]);
      expect((await h(['runs', '--status', 'completed'])).stdout).toContain(`${runId}  completed`);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'should stop with exit 4 when the run needs an approval and nobody can answer here, printing JSON that parses',
    async () => {
      // The bug is back, so the scripted agent meets the repository it expects.
      seedWorkspaceFiles(workspaceId, loadScenario('fix-failing-test').fixture);
      const run = await h(['run', FIX_PROMPT, '--workspace', workspaceId, '--wait', '--json', '--mode', 'approve']);
      expect(run.code).toBe(4);
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ status: 'waiting_permission', workspaceId, pendingPermission: { toolName: 'run_command', status: 'pending' } });
      expect(run.stderr).toContain('needs an approval');
      // The run keeps waiting in H for someone to answer; here it is cancelled.
      const cancelled = await h(['cancel', result.id]);
      expect([cancelled.code, cancelled.stdout.trim()]).toEqual([0, `run ${result.id}: cancelled`]);
      const logs = await h(['logs', result.id, '--json']);
      expect(logs.stdout).toContain('"type":"run.cancelled"');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'should ask at a terminal, answer through the permission API, and finish the fix (a: always for the rest of the run)',
    async () => {
      seedWorkspaceFiles(workspaceId, loadScenario('fix-failing-test').fixture);
      const { CI: _ci, H_URL: _u, H_TOKEN: _t, H_WORKSPACE: _w, ...inherited } = process.env;
      // A pseudo-terminal: stdin, stdout and stderr are a TTY, as for a person at a shell.
      const pty = spawnPty(process.execPath, [CLI, 'run', FIX_PROMPT, '--wait', '--mode', 'approve'], {
        name: 'xterm',
        cols: 160,
        rows: 50,
        cwd: ROOT,
        env: { ...inherited, NO_COLOR: '1', H_CONFIG_DIR: configDir } as Record<string, string>,
      });
      let screen = '';
      let answered = false;
      pty.onData((d) => {
        screen += d;
        if (!answered && screen.includes('[y]es / [n]o / [a]lways for this run: ')) {
          answered = true;
          pty.write('a\r');
        }
      });
      const code = await new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
      expect(screen).toContain('Allow run_command $ npm test?');
      expect([code, screen.includes('✓ completed')]).toEqual([0, true]);
      expect(readWorkspaceFile(workspaceId, 'src/math.js')).toContain('return a + b;');
      const runId = /run ([0-9a-f-]{36}) · h logs/.exec(screen)?.[1] as string;
      const run = await owner.get(`/api/v1/runs/${runId}`);
      const permissions = await owner.get(`/api/v1/sessions/${run.body.sessionId}/permissions`);
      // One question; "always" answered the other two, each through the API as the token's user.
      expect(screen.match(/\[y\]es \/ \[n\]o/g)).toHaveLength(1);
      expect(permissions.body.items.map((p: any) => [p.toolName, p.status])).toEqual([
        ['run_command', 'allowed'],
        ['edit_file', 'allowed'],
        ['run_command', 'allowed'],
      ]);
    },
    RUN_TIMEOUT_MS,
  );

  it('should refuse bad usage with exit 2 and a message that says what to do', async () => {
    const noPrompt = await h(['run']);
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toContain("missing required argument 'prompt'");
    expect((await h(['run', 'x', '--mode', 'sometimes'])).code).toBe(2);
    expect((await h(['frobnicate'])).code).toBe(2);
    const noWs = await h(['run', 'x', '--workspace', 'no-such-workspace']);
    expect(noWs.code).toBe(2);
    expect(noWs.stderr).toContain(`No workspace named "no-such-workspace". Known: ${workspaceName}`);
    expect((await h(['diff', '00000000-0000-4000-8000-000000000000'])).code).toBe(2);
    const loggedOut = await h(['runs'], { H_CONFIG_DIR: join(configDir, 'empty') });
    expect(loggedOut.code).toBe(2);
    expect(loggedOut.stderr).toContain('h login --url URL --token TOKEN');
    const unreachable = await h(['whoami'], { H_URL: 'http://127.0.0.1:1' });
    expect(unreachable.code).toBe(5);
    expect(unreachable.stderr).toContain('Cannot reach H at http://127.0.0.1:1');

    const help = await h(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('4  the run needs an approval');
    for (const command of ['login', 'whoami', 'run', 'runs', 'logs', 'diff', 'cancel']) {
      const page = await h([command, '--help']);
      expect([command, page.code]).toEqual([command, 0]);
      expect(page.stdout).toContain(`Usage: h ${command}`);
    }
  });

  it(
    'should exit 1 when the run fails (here: the team has no provider key), with the reason',
    async () => {
      expect((await owner.delete(`/api/v1/teams/${teamId}/providers/deepseek`)).status).toBe(204);
      const run = await h(['run', 'Say hello.', '--wait', '--mode', 'bypass']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('✗ failed');
      expect(run.stdout).toContain('PROVIDER_KEY_MISSING');
      const json = await h(['runs', '--status', 'failed', '--json']);
      expect(JSON.parse(json.stdout).items).toEqual([expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'PROVIDER_KEY_MISSING' }) })]);
    },
    RUN_TIMEOUT_MS,
  );
});
