import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, screenshot, uniqueSuffix, watchPageErrors } from './web-helpers';

const NOTES_SERVER = readFileSync(join(__dirname, '../../integration/mcp/fixtures/notes-mcp-server.js'), 'utf8');
const RUN_TIMEOUT_MS = 150_000;

async function csrf(page: Page): Promise<Record<string, string>> {
  return { 'x-csrf-token': (await page.context().cookies()).find((c) => c.name === 'h_csrf')?.value ?? '' };
}

/** A write through the real file API with the page's session. */
async function writeFile(page: Page, workspaceId: string, path: string, content: string): Promise<void> {
  const res = await page.request.put(`/api/v1/workspaces/${workspaceId}/files/content?path=${encodeURIComponent(path)}`, { data: { content }, headers: await csrf(page) });
  if (res.status() >= 300) throw new Error(`write ${path}: ${res.status()} ${await res.text()}`);
}

// Issue 12, point 6, in headless Chromium: a member adds a stdio MCP server on the workspace's
// settings page (a program put into the workspace), a run of the agent calls its tool in the
// sandbox (scenario mcp-notes), and the section then shows it connected with its tools; a broken
// server checked with "Check now" shows its error at once, a disabled one says so. Header values typed for an http server never
// come back to the page.
describe('web MCP servers', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('should add stdio servers in the settings, check one at once (its error), and show the other connected with its tools after a run', async () => {
    const page = await browser.context.newPage();
    const pageErrors = watchPageErrors(page);
    const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());
    await writeFile(page, workspaceId, 'tools/notes-server.js', NOTES_SERVER);
    await writeFile(page, workspaceId, 'notes/deploy.txt', 'ship on fridays\n');

    await page.goto(`/workspaces/${workspaceId}/settings`);
    const section = page.getByRole('region', { name: 'MCP servers' });
    await section.getByText('No MCP servers in this workspace yet.').waitFor();

    const form = section.getByRole('form', { name: 'Add MCP server' });
    const openForm = async () => {
      if (!(await form.isVisible())) await section.getByText('Add an MCP server').click();
    };
    const add = async (name: string, script: string, approval: 'ask' | 'allow') => {
      await openForm();
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByLabel('Command', { exact: true }).fill('node');
      await form.getByLabel('Arguments, one per line').fill(script);
      await form.getByLabel('Approval', { exact: true }).selectOption(approval);
      await form.getByRole('button', { name: 'Add MCP server' }).click();
      await section.getByTestId('mcp-server').filter({ hasText: name }).getByText('Not checked yet').waitFor();
    };
    await add('notes', 'tools/notes-server.js', 'allow');
    await add('broken', 'tools/missing.js', 'ask');
    // "Check now": the worker starts it in the sandbox at once, no run needed.
    const broken = section.getByTestId('mcp-server').filter({ hasText: 'broken' });
    await broken.getByRole('button', { name: 'Check now' }).click();
    await broken.getByText('Error', { exact: true }).waitFor();
    await broken.getByText(/Cannot find module '\/workspace\/tools\/missing\.js'/).waitFor();

    // An http server's header: write-only, only its name comes back.
    await openForm();
    await form.getByLabel('Name', { exact: true }).fill('remote');
    await form.getByLabel('Transport', { exact: true }).selectOption('http');
    await form.getByLabel('URL', { exact: true }).fill('https://mcp.example.org/mcp');
    const token = `mcp-e2e-token-${uniqueSuffix()}`;
    await form.getByLabel(/^Headers/).fill(`Authorization: Bearer ${token}`);
    await form.getByRole('button', { name: 'Add MCP server' }).click();
    const remote = section.getByTestId('mcp-server').filter({ hasText: 'remote' });
    await remote.getByText('Headers set: Authorization').waitFor();
    await remote.getByRole('button', { name: 'Disable' }).click();
    await remote.getByText('Disabled', { exact: true }).waitFor();

    // A run of the agent: it connects to the enabled servers, calls the notes tool in the sandbox.
    const session = await page.request.post(`/api/v1/workspaces/${workspaceId}/sessions`, { data: { permissionMode: 'approve' }, headers: await csrf(page) });
    const sessionId = ((await session.json()) as { id: string }).id;
    const posted = await page.request.post(`/api/v1/sessions/${sessionId}/messages`, { data: { content: 'Look up the deploy note with the notes MCP server.' }, headers: await csrf(page) });
    const runId = ((await posted.json()) as { id: string }).id;
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    let status = '';
    while (Date.now() < deadline && !['completed', 'failed', 'cancelled', 'waiting_permission'].includes(status)) {
      status = ((await (await page.request.get(`/api/v1/runs/${runId}?wait=5`)).json()) as { status: string }).status;
    }
    expect(status).toBe('completed');
    const events = ((await (await page.request.get(`/api/v1/sessions/${sessionId}/events?limit=1000`)).json()) as { items: { type: string; data: any }[] }).items;
    expect(events.find((e) => e.type === 'tool.end' && e.data.name === 'mcp__notes__lookup_note')?.data.result).toBe('ship on fridays (read from /workspace/notes/deploy.txt)');

    await section.getByRole('button', { name: 'Refresh status' }).click();
    const notes = section.getByTestId('mcp-server').filter({ hasText: 'notes' });
    await notes.getByText('Connected · 2 tools').waitFor();
    await notes.getByText('mcp__notes__lookup_note, mcp__notes__where_am_i').waitFor();
    await broken.getByText(/MCP server "broken" is unavailable/).waitFor();
    await screenshot(page, 'settings-mcp-servers');

    await page.reload();
    await notes.getByText('Connected · 2 tools').waitFor();
    expect(await page.content()).not.toContain(token);
    await broken.getByRole('button', { name: 'Remove server' }).click();
    await broken.getByRole('button', { name: 'Confirm remove' }).click();
    await broken.waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
