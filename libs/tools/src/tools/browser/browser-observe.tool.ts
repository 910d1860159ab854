import { p, params } from '../../tool-params';
import type { AgentTool } from '../../tool.types';
import { browserCall } from './browser-call';

const noInput = params({});

export const browserScreenshotTool: AgentTool<typeof noInput.zod._output> = {
  name: 'browser_screenshot',
  description:
    'Get a visual snapshot of the current page: the page image (PNG, at most 1024x1024, with a coordinate grid and 100px axis labels) plus a short header (URL, title, and a Screenshot: WxH line that defines the coordinate space for click/type/move). Point at elements by their coordinates in this image.',
  category: 'read',
  parameters: noInput.json,
  input: noInput.zod,
  async execute(_input, ctx) {
    const shot = await browserCall(ctx, 'browser.screenshot', {});
    const header = `URL: ${shot.url}\nTitle: ${shot.title}\nScreenshot: ${shot.width}x${shot.height}`;
    const data = { url: shot.url, title: shot.title, width: shot.width, height: shot.height };
    if (ctx.browser?.vision !== false) return { text: header, image: { mimeType: 'image/png', data: shot.data }, data };
    // The model cannot see images: a vision model describes the page instead, when one is set up.
    const description = ctx.browser.describe ? await ctx.browser.describe(shot.data, header, ctx.signal) : null;
    if (description === null) {
      return { text: `${header}\n(This model cannot see images and no vision model is configured to describe the screenshot; use browser_info, browser_console and browser_request_errors.)`, data };
    }
    return { text: `${header}\nDescription (by the vision model):\n${description}`, data };
  },
};

export const browserConsoleTool: AgentTool<typeof noInput.zod._output> = {
  name: 'browser_console',
  description: 'Get the last 50 console entries (log, warn, error, uncaught exceptions) of the page to check for JS errors.',
  category: 'read',
  parameters: noInput.json,
  input: noInput.zod,
  async execute(_input, ctx) {
    const { entries } = await browserCall(ctx, 'browser.console', {});
    if (entries.length === 0) return { text: 'The console is empty.', data: { entries } };
    return { text: entries.map((e) => `[${e.type}] ${e.text}`).join('\n'), data: { entries } };
  },
};

export const browserRequestErrorsTool: AgentTool<typeof noInput.zod._output> = {
  name: 'browser_request_errors',
  description: 'Get failed network requests of the page (4xx/5xx responses, refused or blocked requests) to verify API calls and resource loads.',
  category: 'read',
  parameters: noInput.json,
  input: noInput.zod,
  async execute(_input, ctx) {
    const { errors } = await browserCall(ctx, 'browser.requestErrors', {});
    if (errors.length === 0) return { text: 'No failed requests.', data: { errors } };
    return { text: errors.map((e) => `${e.method} ${e.url} -> ${e.status ?? e.failure}`).join('\n'), data: { errors } };
  },
};

const dialogInput = params({});

export const browserGetDialogTool: AgentTool<typeof dialogInput.zod._output> = {
  name: 'browser_get_dialog',
  description: 'Check if the page is blocked on a JavaScript dialog (alert/confirm/prompt). Returns the pending dialog\'s id, type, and message.',
  category: 'read',
  parameters: dialogInput.json,
  input: dialogInput.zod,
  async execute(_input, ctx) {
    const { dialog } = await browserCall(ctx, 'browser.dialog', {});
    if (!dialog) return { text: 'No dialog is open.', data: { dialog } };
    const dflt = dialog.defaultValue !== undefined ? `\nDefault value: ${dialog.defaultValue}` : '';
    return { text: `Pending ${dialog.type} dialog (id ${dialog.id}): "${dialog.message}"${dflt}`, data: { dialog } };
  },
};

const respondInput = params({
  id: p.string('the dialog id from browser_get_dialog'),
  accept: p.boolean('true = OK, false = Cancel'),
  value: p.optional(p.string('text to enter in a prompt dialog')),
});

export const browserRespondDialogTool: AgentTool<typeof respondInput.zod._output> = {
  name: 'browser_respond_dialog',
  description: 'Answer a pending dialog so the blocked page continues: accept=true/false for confirm, value for prompt text. The page auto-dismisses as Cancel after 2 minutes if unanswered.',
  category: 'read',
  parameters: respondInput.json,
  input: respondInput.zod,
  async execute({ id, accept, value }, ctx) {
    await browserCall(ctx, 'browser.respondDialog', { id, accept, ...(value !== undefined ? { value } : {}) });
    return { text: `Dialog ${id} ${accept ? 'accepted' : 'dismissed'}.` };
  },
};
