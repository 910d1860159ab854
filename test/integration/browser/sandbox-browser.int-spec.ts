import type { DockerSandboxDriver, SandboxClient } from '@h/sandbox';
import type { BrowserFrameNotification, BrowserTargetResult } from '@h/sandbox-protocol';
import { cleanup, IMAGE_TIMEOUT_MS, makeDriver, spec, testPrefix, waitFor } from '../sandbox/sandbox-test-kit';
import { FIXTURE_APP_SOURCE, FIXTURE_URL } from './fixture-login-app';

// The sandbox's browser at the protocol level, in a real container: the image's Chromium driven
// by sandboxd, a fixture app served inside the same sandbox (its loopback is the only network).
const prefix = testPrefix();
let driver: DockerSandboxDriver;
let client: SandboxClient;

const codeOf = (e: unknown) => (e as { data?: { code?: string } })?.data?.code;

/** PNG width and height from its IHDR chunk. */
function pngSize(base64: string): { width: number; height: number } {
  const b = Buffer.from(base64, 'base64');
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

beforeAll(async () => {
  driver = await makeDriver(prefix);
  const record = await driver.ensure(spec(`${prefix}browser`));
  client = await driver.connect(record);
  await client.call('fs.write', { path: 'fixture.js', content: FIXTURE_APP_SOURCE });
  await client.call('pty.open', { command: 'node', args: ['/workspace/fixture.js'], keepAlive: true, cols: 80, rows: 24 });
  await waitFor(async () => (await client.call('exec.run', { command: `node -e "fetch('${FIXTURE_URL}').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"` })).exitCode === 0, 20_000, 'the fixture app');
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await driver?.close();
  await cleanup(prefix);
});

describe('sandbox browser', () => {
  it('should refuse URLs that are not http or https', async () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi']) {
      const e = await client.call('browser.navigate', { url }).catch((err) => err);
      expect(codeOf(e)).toBe('INVALID_ARGUMENT');
    }
    expect((await client.call('browser.state', {})).tabs).toHaveLength(0);
  });

  it('should open a tab, load the app served in the sandbox and report the page', async () => {
    const state = await client.call('browser.navigate', { url: FIXTURE_URL });
    expect(state.tabs).toEqual([expect.objectContaining({ url: FIXTURE_URL, title: 'Fixture Login', loading: false })]);
    expect(state.activeTabId).toBe(state.tabs[0].id);
    expect(state.viewport).toEqual({ width: 1024, height: 768 });
  }, 60_000);

  it('should take a gridded screenshot no larger than 1024x1024 in the screenshot coordinate space', async () => {
    const shot = await client.call('browser.screenshot', {});
    expect(shot).toMatchObject({ width: 1024, height: 768, url: FIXTURE_URL, title: 'Fixture Login' });
    expect(pngSize(shot.data)).toEqual({ width: 1024, height: 768 });
  });

  it('should keep the last console entries and the failed requests', async () => {
    const { entries } = await client.call('browser.console', {});
    expect(entries.map((e) => [e.type, e.text])).toEqual(expect.arrayContaining([['log', 'fixture ready'], ['error', 'fixture warning']]));
    const { errors } = await client.call('browser.requestErrors', {});
    expect(errors).toEqual(expect.arrayContaining([expect.objectContaining({ url: `${FIXTURE_URL}missing.png`, status: 404, method: 'GET' })]));
  });

  it('should snap pointer actions to the nearest interactive element, log in, and say what it hit', async () => {
    // The fixture's layout: fields at x 40-336, y ≈ 98-135 (user), 147-184 (password), button 196-233.
    const user = await client.call('browser.type', { x: 200, y: 116, text: 'alice' });
    expect(user.target).toBe('<input type="text"> "Username"');
    const pw = await client.call('browser.type', { x: 200, y: 165, text: 's3cret' });
    expect(pw.target).toBe('<input type="password"> "Password"');
    // 25 px right of the button's right edge (320): nothing there, so it snaps onto the button's centre.
    const click: BrowserTargetResult = await client.call('browser.click', { x: 345, y: 214 });
    expect(click.target).toBe('<button> "Sign In"');
    expect(click.x).toBe(180);
    await waitFor(async () => (await client.call('browser.state', {})).tabs[0].title === 'Dashboard', 15_000, 'the dashboard');
    const logins = (await client.call('fs.read', { path: 'logins.jsonl' })).content.trim().split('\n').map((l) => JSON.parse(l));
    expect(logins).toEqual([{ user: 'alice', password: 's3cret' }]);
    expect((await client.call('browser.wait', { selector: '#welcome', timeoutMs: 5000 })).found).toBe(true);
    expect((await client.call('browser.wait', { selector: '#nothing', timeoutMs: 200 })).found).toBe(false);
  }, 60_000);

  it('should hold a dialog until it is answered, refusing page calls meanwhile', async () => {
    await client.call('browser.history', { action: 'back' });
    await waitFor(async () => (await client.call('browser.state', {})).tabs[0].title === 'Fixture Login', 15_000, 'the login page');
    const sel = await client.call('browser.select', { x: 150, y: 263, value: 'pro' });
    expect(sel).toMatchObject({ target: '<select> "Free"', selected: ['pro'] });
    const ask = await client.call('browser.click', { x: 150, y: 311 });
    expect(ask.target).toBe('<button> "Ask"');
    const { dialog } = await client.call('browser.dialog', {});
    expect(dialog).toMatchObject({ type: 'confirm', message: 'Delete it?' });
    const blocked = await client.call('browser.screenshot', {}).catch((e) => e);
    expect(codeOf(blocked)).toBe('UNAVAILABLE');
    expect(String(blocked.message)).toContain('dialog');
    await client.call('browser.respondDialog', { id: dialog?.id ?? '', accept: true });
    await waitFor(async () => (await client.call('browser.state', {})).tabs[0].title === 'confirmed', 10_000, 'the confirmed title');
    expect((await client.call('browser.dialog', {})).dialog).toBeNull();
  }, 60_000);

  it('should stream screencast frames only to a connection that asked, one per acknowledgement', async () => {
    const frames: BrowserFrameNotification[] = [];
    client.peer.onNotification('browser.frame', (f: BrowserFrameNotification) => frames.push(f));
    await client.call('browser.screencast', { enabled: true });
    await client.call('browser.scroll', { deltaY: 200 });
    await waitFor(async () => frames.length >= 1, 10_000, 'a frame');
    // Unacknowledged: the page keeps changing, but no second frame comes.
    await client.call('browser.scroll', { deltaY: -200 });
    await client.call('browser.state', {});
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ width: 1024, height: 768 });
    expect(Buffer.from(frames[0].data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    client.peer.notify('browser.frameAck', {});
    // After the ack frames flow again: the frame held meanwhile if Chromium painted one before the
    // ack, else the next paint's. A scroll paints nothing on a page shorter than the viewport, so
    // each try types into the username field, which always repaints.
    await waitFor(async () => {
      if (frames.length >= 2) return true;
      await client.call('browser.type', { x: 200, y: 116, text: 'x' });
      return frames.length >= 2;
    }, 15_000, 'the next frame');
    await client.call('browser.screencast', { enabled: false });
  }, 60_000);
});
