import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../../support/browser';
import { deepSeekKeySection } from '../web/web-helpers';

// Steps of the console spec that are about getting a workspace with files in it, not the console.

const READY_TIMEOUT_MS = 90_000;

export interface Scenario {
  fixture: Record<string, string>;
}

/** A scenario of the scripted model, as the e2e global setup loaded it. */
export function loadScenario(name: string): Scenario {
  return JSON.parse(readFileSync(path.join(process.cwd(), 'libs/scripted-model/scenarios', `${name}.json`), 'utf8')) as Scenario;
}

/**
 * Writes files into a workspace's sandbox container as the sandbox user (uid 1000), the way a
 * repository checkout would put them there. H has no file API yet; this is test setup only and
 * goes through Docker, never through the agent under test.
 */
export function seedWorkspaceFiles(workspaceId: string, files: Record<string, string>): void {
  const prefix = process.env.H_E2E_SANDBOX_PREFIX;
  if (!prefix) throw new Error('H_E2E_SANDBOX_PREFIX is not set: the e2e global setup names the sandboxes');
  const container = `${prefix}ws-${workspaceId}`;
  // Idempotent: a sandbox stopped for idleness is started again, a running one is left alone.
  execFileSync('docker', ['start', container], { stdio: 'pipe' });
  for (const [file, content] of Object.entries(files)) {
    if (file.includes('..') || file.startsWith('/')) throw new Error(`fixture path must stay in the workspace: ${file}`);
    execFileSync('docker', ['exec', '-i', '-u', '1000', '-w', '/workspace', container, 'sh', '-c', 'mkdir -p "$(dirname "$1")" && cat > "$1"', 'sh', file], {
      input: content,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  }
}

export function readWorkspaceFile(workspaceId: string, file: string): string {
  const container = `${process.env.H_E2E_SANDBOX_PREFIX}ws-${workspaceId}`;
  return execFileSync('docker', ['exec', '-u', '1000', '-w', '/workspace', container, 'cat', file], { encoding: 'utf8' });
}

/**
 * From a fresh browser: sign up, create a team with a DeepSeek key (unless told not to) and a
 * viewer invitation link (if asked), create a workspace and open it once ready.
 */
export async function signUpToReadyWorkspace(
  page: Page,
  suffix: string,
  options: { inviteViewer?: boolean; providerKey?: boolean } = {},
): Promise<{ workspaceId: string; workspaceName: string; inviteLink?: string }> {
  const { inviteViewer, providerKey = true } = options;
  const teamName = `Console ${suffix}`;
  const workspaceName = `calc-${suffix}`;
  await page.goto('/signup');
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill(`e2e-console-${suffix}@example.com`);
  await page.getByLabel('Password').fill(`console pass ${suffix}`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/teams');

  await page.getByLabel('Team name').fill(teamName);
  await page.getByRole('button', { name: 'Create team' }).click();
  await page.getByRole('list', { name: 'Teams' }).getByRole('link', { name: teamName }).click();
  await page.getByRole('heading', { level: 1, name: teamName }).waitFor();

  if (providerKey) {
    // Any key: the scripted model server stands in for DeepSeek.
    await deepSeekKeySection(page).getByLabel('API key', { exact: true }).fill(`sk-e2e-${suffix}`);
    await deepSeekKeySection(page).getByRole('button', { name: 'Save key' }).click();
    await deepSeekKeySection(page).getByTestId('provider-status').getByText('Configured', { exact: true }).waitFor();
  }

  let inviteLink: string | undefined;
  if (inviteViewer) {
    // People join by invitation link, never by typing their email: the owner makes one for a viewer.
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    inviteLink = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  }

  await page.getByLabel('Workspace name').fill(workspaceName);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  const row = page.getByTestId('workspace-row').filter({ hasText: workspaceName });
  await row.locator('[data-status="ready"]').waitFor({ timeout: READY_TIMEOUT_MS });
  await row.getByRole('link', { name: workspaceName }).click();
  await page.waitForURL('**/workspaces/*');
  await page.getByRole('heading', { level: 1, name: workspaceName }).waitFor();
  const workspaceId = new URL(page.url()).pathname.split('/').pop() as string;
  return { workspaceId, workspaceName, inviteLink };
}

export async function csrfHeader(page: Page): Promise<Record<string, string>> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'h_csrf')?.value;
  if (!csrf) throw new Error('no h_csrf cookie in the owner\'s browser');
  return { 'x-csrf-token': csrf };
}

/** The owner (signed in on `page`) invites a member by link; the member signs up with it in `browser`. */
export async function inviteMember(page: Page, browser: LaunchedBrowser, workspaceId: string, email: string): Promise<string> {
  const { teamId } = (await (await page.request.get(`/api/v1/workspaces/${workspaceId}`)).json()) as { teamId: string };
  const invitation = await page.request.post(`/api/v1/teams/${teamId}/members`, { data: { role: 'member' }, headers: await csrfHeader(page) });
  expect(invitation.status()).toBe(201);
  const { token } = (await invitation.json()) as { token: string };
  const signup = await browser.context.request.post('/api/v1/auth/signup', {
    data: { name: 'Alan Turing', email, password: `collab pass ${email}`, invitationToken: token },
  });
  expect(signup.status()).toBe(201);
  return teamId;
}
