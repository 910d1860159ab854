import type { Page } from 'playwright-core';
import { CSRF_COOKIE, CSRF_HEADER } from '@h/contracts';
import { request } from 'playwright-core';
import { type LaunchedBrowser, launchBrowser } from '../../support/browser';
import { signUpToReadyWorkspace } from '../console/console-helpers';
import { baseUrl, logIn, screenshot, signUpViaApi, uniqueSuffix, watchPageErrors } from '../web/web-helpers';
import '../../support/monaco-window';

// The IDE of the workspace page in headless Chromium against the built api, worker, web and a real
// sandbox: create a file in the explorer, edit and save it, reload (tabs come back from the
// server), see changes made behind the page's back, resolve a save conflict, quick open.

/**
 * Monaco 0.57's AMD build sometimes (timing-dependent) initialises its services before all editor
 * features registered theirs; those features then throw "[createInstance] X depends on UNKNOWN
 * service Y" when an editor creates them (code lens, inlay hints, suggest memory…). Editing,
 * saving, find and the diff views work either way. Known and not fixed in H yet (see the IDE's
 * README); every other page error still fails the test.
 */
const realErrors = (errors: string[]) => errors.filter((e) => !/^\[createInstance\] \S+ depends on UNKNOWN service /.test(e));

const editorText = (page: Page, file: string) =>
  page.evaluate((name) => window.monaco?.editor.getModels().find((m) => m.uri.path === `/workspace/${name}`)?.getValue() ?? null, file);

async function waitForEditorText(page: Page, file: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([name, want]) => window.monaco?.editor.getModels().find((m) => m.uri.path === `/workspace/${name}`)?.getValue() === want,
    [file, text] as const,
  );
}

/** The file API as a script or a teammate would use it, with the page's own session. */
function filesApi(page: Page, workspaceId: string) {
  const base = `/api/v1/workspaces/${workspaceId}/files`;
  const csrf = async () => (await page.context().cookies()).find((c) => c.name === CSRF_COOKIE)?.value ?? '';
  return {
    async read(path: string): Promise<{ content: string; etag: string }> {
      const res = await page.request.get(`${base}/text?path=${encodeURIComponent(path)}`);
      expect(res.status()).toBe(200);
      return (await res.json()) as { content: string; etag: string };
    },
    async write(path: string, content: string, etag: string): Promise<void> {
      const res = await page.request.put(`${base}/content?path=${encodeURIComponent(path)}`, { data: { content }, headers: { 'if-match': etag, [CSRF_HEADER]: await csrf() } });
      expect(res.status()).toBe(200);
    },
    async create(path: string, content: string): Promise<void> {
      const res = await page.request.post(`${base}?path=${encodeURIComponent(path)}`, { data: { type: 'file', content }, headers: { [CSRF_HEADER]: await csrf() } });
      expect(res.status()).toBe(201);
    },
  };
}

describe('IDE', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'should create, edit and save a file, bring tabs back after a reload, follow outside changes and resolve a conflict',
    async () => {
      const page = await browser.context.newPage();
      const errors = watchPageErrors(page);
      const { workspaceId } = await signUpToReadyWorkspace(page, uniqueSuffix());
      const files = filesApi(page, workspaceId);
      const ide = page.getByTestId('ide');
      await ide.waitFor();
      await page.getByText('This workspace has no files yet.').waitFor();

      // Create a file from the explorer: it opens in the editor (and its tab is saved in the IDE state).
      const stateSaved = page.waitForResponse((r) => r.url().endsWith('/ide-state') && r.request().method() === 'PUT' && (r.request().postData() ?? '').includes('hello.ts'));
      await page.getByRole('button', { name: 'New file' }).click();
      await page.getByLabel('New file name').fill('hello.ts');
      await page.getByLabel('New file name').press('Enter');
      await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'hello.ts' }).waitFor();
      await page.getByRole('tab', { name: 'hello.ts' }).waitFor();
      await page.locator('[data-testid="monaco-host"] .monaco-editor').waitFor();

      // Type and save with Ctrl+S; the dirty marker comes and goes, the workspace has the text.
      await page.locator('[data-testid="monaco-host"] .view-lines').click();
      await page.keyboard.type('export const greeting = 42;');
      await page.getByTestId('dirty-marker').waitFor();
      await page.getByTestId('status-cursor').getByText('Ln 1, Col 28').waitFor();
      await page.getByTestId('status-language').getByText('TypeScript').waitFor();
      await screenshot(page, 'ide-editing');
      await page.keyboard.press('Control+S');
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached' });
      expect((await files.read('hello.ts')).content).toBe('export const greeting = 42;');
      await stateSaved;

      // Ctrl+S in the same moment as the last keystroke, before the page re-rendered it (a fast
      // typist, a busy machine): the save still writes what the editor shows, not the text the page
      // rendered last.
      const fastSave = page.waitForResponse((r) => r.url().includes(`/workspaces/${workspaceId}/files/content`) && r.request().method() === 'PUT');
      await page.evaluate(() => {
        const editor = window.monaco?.editor.getEditors()[0];
        if (!editor) throw new Error('no editor');
        editor.focus();
        editor.trigger('keyboard', 'type', { text: ' // fast' });
        editor.getDomNode()?.querySelector('textarea')?.dispatchEvent(new KeyboardEvent('keydown', { key: 's', code: 'KeyS', ctrlKey: true, bubbles: true, cancelable: true }));
      });
      expect((await fastSave).status()).toBe(200);
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached' });
      expect((await files.read('hello.ts')).content).toBe('export const greeting = 42; // fast');

      // A reload reopens the tab from the server-side IDE state, with the saved content.
      await page.reload();
      await page.getByRole('tab', { name: 'hello.ts', selected: true }).waitFor();
      await waitForEditorText(page, 'hello.ts', 'export const greeting = 42; // fast');
      await screenshot(page, 'ide-reloaded');

      // Changed behind the page's back (a teammate, the agent, a terminal): the clean tab reloads.
      const first = await files.read('hello.ts');
      await files.write('hello.ts', 'export const greeting = 43;\n', first.etag);
      await waitForEditorText(page, 'hello.ts', 'export const greeting = 43;\n');
      expect(await page.getByTestId('dirty-marker').count()).toBe(0);

      // Unsaved edits meet another outside change: the tab offers a compare, and saving gives the
      // conflict compare; "Keep mine" writes over the version it compared with.
      await page.locator('[data-testid="monaco-host"] .view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// mine');
      await page.getByTestId('dirty-marker').waitFor();
      const second = await files.read('hello.ts');
      await files.write('hello.ts', 'export const greeting = 44;\n', second.etag);
      await page.getByTestId('disk-bar').getByText('changed in the workspace while you have unsaved edits').waitFor();
      await page.keyboard.press('Control+S');
      const conflict = page.getByTestId('conflict-view');
      await conflict.waitFor();
      await conflict.locator('.monaco-diff-editor').waitFor();
      await screenshot(page, 'ide-conflict');
      await conflict.getByRole('button', { name: 'Keep mine' }).click();
      await conflict.waitFor({ state: 'detached' });
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached' });
      expect((await files.read('hello.ts')).content).toBe('export const greeting = 43;\n// mine');
      expect(await editorText(page, 'hello.ts')).toBe('export const greeting = 43;\n// mine');

      // Quick open (Ctrl+P) finds a file by a fuzzy part of its path and opens it.
      await files.create('src/util/math-helpers.ts', 'export const add = (a: number, b: number) => a + b;\n');
      await page.getByRole('treeitem', { name: 'src' }).waitFor();
      await page.keyboard.press('Control+P');
      await page.getByRole('combobox', { name: 'Go to a file' }).fill('mathh');
      await page.getByRole('option', { name: /src\/util\/math-helpers\.ts/ }).waitFor();
      await screenshot(page, 'ide-quick-open');
      await page.keyboard.press('Enter');
      await page.getByRole('tab', { name: 'math-helpers.ts', selected: true }).waitFor();
      await waitForEditorText(page, 'src/util/math-helpers.ts', 'export const add = (a: number, b: number) => a + b;\n');
      // The explorer revealed it: its folders are expanded.
      await page.getByRole('treeitem', { name: 'math-helpers.ts' }).waitFor();

      // Dragging a file onto a folder moves it; its open tab follows to the new path.
      await page.getByRole('treeitem', { name: 'hello.ts', exact: true }).dragTo(page.getByRole('treeitem', { name: 'util', exact: true }));
      await page.locator('[data-testid="editor-tab"][data-path="src/util/hello.ts"]').waitFor();
      expect((await files.read('src/util/hello.ts')).content).toBe('export const greeting = 43;\n// mine');
      await page.getByRole('tree', { name: 'Files' }).locator('[data-path="hello.ts"]').waitFor({ state: 'detached' });

      // The command palette lists registered commands and runs them.
      const panelSaved = page.waitForResponse((r) => r.url().endsWith('/ide-state') && r.request().method() === 'PUT' && (r.request().postData() ?? '').includes('"bottomTab":"output"'));
      await page.keyboard.press('Control+Shift+P');
      await page.getByRole('combobox', { name: 'Run a command' }).fill('>toggle panel');
      await page.keyboard.press('Enter');
      await page.getByRole('tab', { name: 'Output' }).waitFor();
      await page.getByRole('tabpanel', { name: 'Output' }).getByText('Moved hello.ts to src/util/hello.ts.').waitFor();
      await screenshot(page, 'ide-panel');

      // The open panel, both tabs and the active one come back after a reload.
      await panelSaved;
      await page.reload();
      await page.getByRole('tab', { name: 'math-helpers.ts', selected: true }).waitFor();
      await page.getByRole('tab', { name: 'hello.ts' }).waitFor();
      await page.getByRole('tab', { name: 'Output', selected: true }).waitFor();

      // A new file's name may be a path below the selected entry's folder, as in VS Code: the
      // folders on the way are created, shown open, and the file opens.
      await page.getByRole('treeitem', { name: 'math-helpers.ts' }).click();
      await page.getByRole('button', { name: 'New file' }).click();
      await page.getByLabel('New file name').fill('deep/more/nested.ts');
      await page.getByLabel('New file name').press('Enter');
      await page.getByRole('tab', { name: 'nested.ts', selected: true }).waitFor();
      await page.getByRole('tree', { name: 'Files' }).locator('[data-path="src/util/deep/more/nested.ts"]').waitFor();
      expect((await files.read('src/util/deep/more/nested.ts')).content).toBe('');

      expect(realErrors(errors)).toEqual([]);
      await page.close();
    },
    240_000,
  );

  it(
    'should let a viewer browse and read files but offer no write action',
    async () => {
      const signups = await request.newContext({ baseURL: baseUrl() });
      const viewer = await signUpViaApi(signups, 'Vera Viewer');
      await signups.dispose();
      await browser.context.clearCookies();
      const ownerPage = await browser.context.newPage();
      const { workspaceId, inviteLink } = await signUpToReadyWorkspace(ownerPage, uniqueSuffix(), { inviteViewer: true });
      await filesApi(ownerPage, workspaceId).create('docs/notes.md', '# Notes\n');
      await ownerPage.close();
      await browser.context.clearCookies();

      const page = await browser.context.newPage();
      const errors = watchPageErrors(page);
      await page.goto('/login');
      await logIn(page, viewer.email, viewer.password);
      await page.waitForURL('**/teams');
      await page.goto(inviteLink as string);
      await page.getByRole('button', { name: /^Join / }).click();
      await page.waitForURL(/\/teams\/[0-9a-f-]{36}$/);
      await page.goto(`/workspaces/${workspaceId}`);
      await page.getByRole('treeitem', { name: 'docs', exact: true }).click();
      await page.getByRole('treeitem', { name: 'notes.md' }).click();
      await page.getByRole('tab', { name: 'notes.md', selected: true }).waitFor();
      await page.getByText('Viewers can read files but not change them.').waitFor();
      await waitForEditorText(page, 'docs/notes.md', '# Notes\n');
      for (const name of ['New file', 'New folder', 'Upload files']) expect(await page.getByRole('button', { name }).count()).toBe(0);
      await page.getByRole('treeitem', { name: 'notes.md' }).click({ button: 'right' });
      const menu = page.getByRole('menu');
      await menu.getByRole('menuitem', { name: 'Open' }).waitFor();
      expect(await menu.getByRole('menuitem', { name: /Rename|Delete|New/ }).count()).toBe(0);
      await screenshot(page, 'ide-viewer');
      expect(realErrors(errors)).toEqual([]);
      await page.close();
    },
    180_000,
  );
});
