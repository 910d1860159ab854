import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, screenshot, uniqueSuffix, watchPageErrors } from '../web/web-helpers';

// Issue 10, point 8, in headless Chromium against the built stack: the Source Control side view
// over a real sandbox. A file written through the file API (as a teammate's save would) shows up
// in Changes by itself; staging, the diff, committing with Ctrl+Enter and the log go through the
// panel; git in the sandbox confirms the author is the H user.

function gitInSandbox(workspaceId: string, ...args: string[]): string {
  const container = `${process.env.H_E2E_SANDBOX_PREFIX}ws-${workspaceId}`;
  return execFileSync('docker', ['exec', '-u', '1000', '-w', '/workspace', container, 'git', ...args], { encoding: 'utf8' });
}

/** A write through the real file API with the page's session (cookie + CSRF header). */
async function writeFile(page: Page, workspaceId: string, path: string, content: string, ifMatch?: string): Promise<void> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'h_csrf')?.value ?? '';
  const res = await page.request.put(`/api/v1/workspaces/${workspaceId}/files/content?path=${encodeURIComponent(path)}`, {
    data: { content },
    headers: { 'x-csrf-token': csrf, ...(ifMatch ? { 'if-match': ifMatch } : {}) },
  });
  if (res.status() >= 300) throw new Error(`write ${path}: ${res.status()} ${await res.text()}`);
}

describe('Source Control panel', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should initialize a repository, show an API edit in Changes, stage it, commit from the panel and list it in the log', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix(), { providerKey: false });

    await page.getByRole('button', { name: 'Source Control', exact: true }).click();
    const view = page.getByRole('complementary', { name: 'Source Control' });
    await view.getByText('This workspace has no git repository.').waitFor();
    await view.getByRole('button', { name: 'Initialize repository' }).click();
    await view.getByText('No changes.').waitFor();
    await view.getByText('No commits yet.').waitFor();
    await page.getByTestId('status-branch').getByText('main', { exact: true }).waitFor();

    // Written outside the panel: live files bring it in.
    await writeFile(page, workspaceId, 'notes/hello.md', '# Hello\n');
    const untracked = view.getByRole('region', { name: /^Untracked/ });
    await untracked.locator('[data-path="notes/hello.md"]').waitFor();
    await screenshot(page, 'scm-untracked');

    await untracked.getByRole('button', { name: 'Stage notes/hello.md' }).click();
    const staged = view.getByRole('region', { name: /^Staged changes/ });
    await staged.locator('[data-path="notes/hello.md"]').waitFor();

    // A click opens the staged diff in the editor.
    await staged.getByRole('button', { name: /^hello\.md/ }).click();
    await page.getByTestId('diff-view').waitFor();
    await page.getByTestId('editor-tab').filter({ hasText: 'hello.md (staged)' }).waitFor();

    const message = view.getByLabel('Commit message');
    await message.fill('Add the hello note');
    await message.press('Control+Enter');
    const log = view.getByRole('region', { name: 'Commits' });
    await log.getByText('Add the hello note').waitFor();
    await view.getByText('No changes.').waitFor();
    await screenshot(page, 'scm-committed');
    // Recorded by git in the sandbox with the H user as author and committer.
    expect(gitInSandbox(workspaceId, 'log', '-1', '--format=%an|%cn|%s')).toBe('Grace Hopper|Grace Hopper|Add the hello note\n');

    // A change to the committed file lands in Changes, and a new branch shows in the status bar.
    await writeFile(page, workspaceId, 'notes/hello.md', '# Hello\nagain\n', '*');
    await view.getByRole('region', { name: /^Changes/ }).locator('[data-path="notes/hello.md"]').waitFor();
    await view.getByRole('button', { name: 'New branch' }).click();
    await view.getByLabel('New branch name').fill('feature/notes');
    await view.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('status-branch').getByText('feature/notes', { exact: true }).waitFor();
    expect(gitInSandbox(workspaceId, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/notes\n');
    await screenshot(page, 'scm-branch');
    expect(pageErrors).toEqual([]);
  });
});
