import { actionCaption, fittedRect, fromViewportPoint, normalizeAddress, toKeyInput, toViewportPoint } from './browser-view-state';

describe('normalizeAddress', () => {
  it('should add http:// to a bare host and keep http(s) addresses', () => {
    expect(normalizeAddress('localhost:3000/login')).toBe('http://localhost:3000/login');
    expect(normalizeAddress(' https://example.test/a ')).toBe('https://example.test/a');
  });

  it('should refuse schemes the sandbox browser may not open, and empty input', () => {
    expect(normalizeAddress('file:///etc/passwd')).toBeNull();
    expect(normalizeAddress('javascript:alert(1)')).toBeNull();
    expect(normalizeAddress('   ')).toBeNull();
  });
});

describe('toViewportPoint', () => {
  const viewport = { width: 1024, height: 768 };
  const frame = { width: 1024, height: 768 };

  it('should scale a point of a half-size view to the viewport', () => {
    expect(toViewportPoint({ x: 256, y: 192 }, { width: 512, height: 384 }, frame, viewport)).toEqual({ x: 512, y: 384 });
  });

  it('should account for the letterbox and refuse points on it', () => {
    // A 1024x384 box: the 4:3 frame is 512 wide, centred (256 px bars left and right).
    const box = { width: 1024, height: 384 };
    expect(fittedRect(box, frame)).toEqual({ left: 256, top: 0, width: 512, height: 384 });
    expect(toViewportPoint({ x: 100, y: 100 }, box, frame, viewport)).toBeNull();
    expect(toViewportPoint({ x: 256, y: 0 }, box, frame, viewport)).toEqual({ x: 0, y: 0 });
  });

  it('should scale to the viewport when frames are smaller than it', () => {
    expect(toViewportPoint({ x: 320, y: 240 }, { width: 640, height: 480 }, { width: 640, height: 480 }, { width: 1280, height: 960 })).toEqual({ x: 640, y: 480 });
  });

  it('should place an agent point back into the box', () => {
    expect(fromViewportPoint({ x: 512, y: 384 }, { width: 1024, height: 384 }, frame, viewport)).toEqual({ x: 512, y: 192 });
  });
});

describe('toKeyInput', () => {
  const key = (k: string, code: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }> = {}) => ({
    key: k,
    code,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    ...mods,
  });

  it('should send printable text for a plain key and none for a shortcut', () => {
    expect(toKeyInput('down', key('a', 'KeyA'))).toEqual({ kind: 'key', type: 'down', key: 'a', code: 'KeyA', text: 'a' });
    expect(toKeyInput('down', key('A', 'KeyA', { shiftKey: true }))).toEqual({ kind: 'key', type: 'down', key: 'A', code: 'KeyA', text: 'A', modifiers: 8 });
    expect(toKeyInput('down', key('a', 'KeyA', { ctrlKey: true }))).toEqual({ kind: 'key', type: 'down', key: 'a', code: 'KeyA', modifiers: 2 });
    expect(toKeyInput('up', key('a', 'KeyA'))).toEqual({ kind: 'key', type: 'up', key: 'a', code: 'KeyA' });
  });

  it('should send Enter as a carriage return and ignore dead keys', () => {
    expect(toKeyInput('down', key('Enter', 'Enter'))?.text).toBe('\r');
    expect(toKeyInput('down', key('Dead', 'Quote'))).toBeNull();
  });
});

describe('actionCaption', () => {
  it('should name the agent and the target it hit', () => {
    expect(actionCaption({ action: 'browser_click', target: '<button> "Sign In"', by: 'agent' })).toBe('Browser Agent clicked <button> "Sign In"');
    expect(actionCaption({ action: 'browser_type', target: '<input> "Email"', by: 'agent' })).toBe('Browser Agent typed into <input> "Email"');
  });

  it('should say You for the viewer own actions and a teammate otherwise', () => {
    expect(actionCaption({ action: 'navigate', target: 'http://localhost:3000/', by: 'u1' }, { self: 'u1' })).toBe('You opened http://localhost:3000/');
    expect(actionCaption({ action: 'browser_wait', by: 'u2' }, { self: 'u1' })).toBe('A teammate waited for');
  });
});
