import { p, params } from '../../tool-params';
import type { BrowserTargetResult } from '@h/sandbox-protocol';
import type { AgentTool, ToolContext } from '../../tool.types';
import { browserCall, coordinates, hitLine, pageLine } from './browser-call';

const point = params({ ...coordinates });
type Point = typeof point.zod._output;

/** The tools that only point (click, right-click, hover, clear): one sandbox call, one report line. */
function pointerTool(name: string, description: string, verb: string, call: (ctx: ToolContext, at: Point) => Promise<BrowserTargetResult>): AgentTool<Point> {
  return {
    name,
    description,
    category: 'read',
    parameters: point.json,
    input: point.zod,
    async execute(at, ctx) {
      const r = await call(ctx, at);
      return { text: hitLine(verb, r), data: r };
    },
  };
}

export const browserClickTool = pointerTool(
  'browser_click',
  'Click at screenshot-image x,y coordinates (the header\'s Screenshot: WxH fixes the pixel space). Aim at the element\'s center: the click snaps to the nearest interactive element and reports what was clicked (e.g. <button> "Sign In").',
  'Clicked',
  (ctx, { x, y }) => browserCall(ctx, 'browser.click', { x, y, by: 'agent' }),
);

export const browserRightClickTool = pointerTool(
  'browser_right_click',
  'Right-click at screenshot-image x,y: dispatches the contextmenu event.',
  'Right-clicked',
  (ctx, { x, y }) => browserCall(ctx, 'browser.click', { x, y, button: 'right', by: 'agent' }),
);

export const browserMoveMouseTool = pointerTool(
  'browser_move_mouse',
  'Move the cursor to screenshot-image x,y: triggers hover effects without clicking.',
  'Moved the mouse over',
  (ctx, { x, y }) => browserCall(ctx, 'browser.move', { x, y, by: 'agent' }),
);

export const browserClearTool = pointerTool(
  'browser_clear',
  'Clear the value of the input/textarea at screenshot-image x,y.',
  'Cleared',
  (ctx, { x, y }) => browserCall(ctx, 'browser.clear', { x, y, by: 'agent' }),
);

const typeInput = params({ ...coordinates, text: p.string('the text to type') });

export const browserTypeTool: AgentTool<typeof typeInput.zod._output> = {
  name: 'browser_type',
  description:
    'Click the input/textarea near screenshot-image x,y and type text into it: snaps to the nearest text field, clicks first, clears, then types with realistic keyboard events.',
  category: 'read',
  parameters: typeInput.json,
  input: typeInput.zod,
  async execute({ x, y, text }, ctx) {
    const r = await browserCall(ctx, 'browser.type', { x, y, text, by: 'agent' });
    return { text: hitLine(`Typed ${text.length} characters into`, r), data: r };
  },
};

const selectInput = params({
  ...coordinates,
  value: p.optional(p.string('the option\'s value attribute')),
  label: p.optional(p.string('the option\'s visible text (when no value is given)')),
});

export const browserSelectTool: AgentTool<typeof selectInput.zod._output> = {
  name: 'browser_select',
  description: 'Select an option from the native <select> near screenshot-image x,y by value or label.',
  category: 'read',
  parameters: selectInput.json,
  input: selectInput.zod,
  async execute({ x, y, value, label }, ctx) {
    const r = await browserCall(ctx, 'browser.select', { x, y, ...(value !== undefined ? { value } : { label }), by: 'agent' });
    return { text: hitLine('Selected', r, ` -> ${r.selected.join(', ') || 'nothing'}`), data: r };
  },
};

const scrollInput = params({
  deltaY: p.optional(p.integer('pixels down (negative: up); default 400', -100_000)),
  deltaX: p.optional(p.integer('pixels right (negative: left)', -100_000)),
  to: p.optional(p.enum(['top', 'bottom'] as const, 'scroll to the top or bottom instead')),
});

export const browserScrollTool: AgentTool<typeof scrollInput.zod._output> = {
  name: 'browser_scroll',
  description: 'Scroll the page by pixels or to top/bottom.',
  category: 'read',
  parameters: scrollInput.json,
  input: scrollInput.zod,
  async execute({ deltaX, deltaY, to }, ctx) {
    const state = await browserCall(ctx, 'browser.scroll', { deltaX, deltaY, to, by: 'agent' });
    return { text: `Scrolled ${to ? `to the ${to}` : `by ${deltaY ?? 400} px`}.\n${pageLine(state)}`, data: state };
  },
};

const keyInput = params({ key: p.string('Enter, Escape, Tab, ArrowDown, Backspace, a, Control+A, ...') });

export const browserPressKeyTool: AgentTool<typeof keyInput.zod._output> = {
  name: 'browser_press_key',
  description: 'Press a keyboard key (Enter, Escape, Tab, Arrows, etc.) on the active element.',
  category: 'read',
  parameters: keyInput.json,
  input: keyInput.zod,
  async execute({ key }, ctx) {
    const state = await browserCall(ctx, 'browser.press', { key, by: 'agent' });
    return { text: `Pressed ${key}.\n${pageLine(state)}`, data: state };
  },
};

const waitInput = params({
  selector: p.string('CSS selector, e.g. #result or .toast'),
  timeout_ms: p.optional(p.integer('default 5000, at most 30000')),
});

export const browserWaitTool: AgentTool<typeof waitInput.zod._output> = {
  name: 'browser_wait',
  description: 'Wait for an element matching a CSS selector to appear (default 5s timeout, at most 30s).',
  category: 'read',
  parameters: waitInput.json,
  input: waitInput.zod,
  async execute({ selector, timeout_ms }, ctx) {
    const timeoutMs = Math.min(timeout_ms ?? 5000, 30_000);
    const { found } = await browserCall(ctx, 'browser.wait', { selector, timeoutMs });
    return { text: found ? `${selector} is on the page.` : `${selector} did not appear within ${timeoutMs} ms.`, data: { found } };
  },
};

const uploadInput = params({
  paths: p.array(p.string(), 'absolute workspace paths, e.g. /workspace/fixtures/photo.png'),
  x: p.optional(p.integer('the file input\'s x in the screenshot; omit to use the page\'s first file input')),
  y: p.optional(p.integer('the file input\'s y in the screenshot')),
});

export const browserUploadFileTool: AgentTool<typeof uploadInput.zod._output> = {
  name: 'browser_upload_file',
  description: 'Set files on a file input by absolute paths: pass the file input\'s x,y in the screenshot, or omit them to use the page\'s first file input.',
  category: 'read',
  parameters: uploadInput.json,
  input: uploadInput.zod,
  async execute({ paths, x, y }, ctx) {
    const at = x !== undefined && y !== undefined ? { x, y } : {};
    const r = await browserCall(ctx, 'browser.upload', { paths, ...at });
    return { text: `Set ${paths.length} file(s) on ${r.target ?? 'the file input'}.`, data: r };
  },
};
