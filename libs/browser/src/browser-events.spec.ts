import { BROWSER_DEFAULT_VIEWPORT } from '@h/contracts';
import { toBrowserAction, toBrowserFrame, toBrowserState } from './browser-events';

const ws = 'w1';

describe('browser events from sandboxd', () => {
  it('should keep known tab fields and fall back to the default viewport', () => {
    const state = toBrowserState(ws, { tabs: [{ id: 't1', url: 'http://localhost:3000/', title: 'Login', loading: false, canGoBack: true, extra: 1 }, { url: 'no id' }], activeTabId: 't1', viewport: { width: -1 } });
    expect(state).toEqual({
      workspaceId: ws,
      tabs: [{ id: 't1', url: 'http://localhost:3000/', title: 'Login', loading: false, canGoBack: true, canGoForward: false }],
      activeTabId: 't1',
      viewport: { ...BROWSER_DEFAULT_VIEWPORT },
    });
  });

  it('should report no active tab for an empty browser', () => {
    expect(toBrowserState(ws, null)).toMatchObject({ tabs: [], activeTabId: null });
  });

  it('should drop frames that are not bounded base64 pictures', () => {
    expect(toBrowserFrame(ws, { tabId: 't1', data: '/9j/4AAQ', width: 1024, height: 768 })).toMatchObject({ workspaceId: ws, tabId: 't1' });
    expect(toBrowserFrame(ws, { tabId: 't1', data: '<script>', width: 1024, height: 768 })).toBeNull();
    expect(toBrowserFrame(ws, { tabId: 't1', data: '/9j/', width: Number.NaN, height: 768 })).toBeNull();
    expect(toBrowserFrame(ws, { tabId: 't1', data: 'A'.repeat(5 * 1024 * 1024), width: 10, height: 10 })).toBeNull();
  });

  it('should bound the target of an action and keep a point only when both coordinates are numbers', () => {
    const a = toBrowserAction(ws, { action: 'browser_click', x: 10, y: 20, target: 'x'.repeat(1000), by: 'agent' });
    expect(a?.target?.length).toBe(300);
    expect(a).toMatchObject({ x: 10, y: 20, by: 'agent' });
    expect(toBrowserAction(ws, { action: 'browser_type', x: 10 })).toEqual({ workspaceId: ws, action: 'browser_type', by: 'agent' });
    expect(toBrowserAction(ws, { x: 1 })).toBeNull();
  });
});
