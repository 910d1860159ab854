import { z } from 'zod';
import { BROWSER_FRAME_MAX_HEIGHT, BROWSER_FRAME_MAX_WIDTH, type BrowserInput } from '@h/contracts';

// The browser view's client messages, validated before anything reaches the sandbox: what a
// browser tab sends is untrusted (urls http/https only, numbers finite and inside the viewport,
// key strings short).

/** Longest address the view may navigate to (browsers cope with more; nobody types it). */
export const BROWSER_URL_MAX = 4096;
/** KeyboardEvent.key / .code are short names ("ArrowLeft", "Numpad0"); text is one key's output. */
export const BROWSER_KEY_MAX = 32;
/** Wheel deltas beyond this are a flick of many pages; sandboxd gets at most this. */
export const BROWSER_WHEEL_MAX = 10_000;

const uuid = z.string().uuid();
/** Tab ids come from sandboxd; bounded so a forged one is cheap to refuse. */
const tabId = z.string().min(1).max(64).optional();

export const browserUrl = z
  .string()
  .trim()
  .min(1)
  .max(BROWSER_URL_MAX)
  .refine((value) => {
    try {
      const u = new URL(value);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// address');

export const browserSchemas = {
  ref: z.object({ workspaceId: uuid }),
  navigate: z.object({ workspaceId: uuid, url: browserUrl, tabId }),
  history: z.object({ workspaceId: uuid, tabId, action: z.enum(['back', 'forward', 'reload']) }),
  tab: z
    .object({ workspaceId: uuid, action: z.enum(['open', 'close', 'activate']), tabId, url: browserUrl.optional() })
    .refine((r) => r.action === 'open' || r.tabId !== undefined, { message: 'close and activate name a tabId', path: ['tabId'] }),
  input: z.object({ workspaceId: uuid, tabId, input: z.unknown() }),
};

const keyText = z.string().min(1).max(BROWSER_KEY_MAX);

/** Builds the input schema for a viewport: a point outside it is refused, not clamped (the view scales). */
export function browserInputSchema(viewport: { width: number; height: number }): z.ZodType<BrowserInput> {
  const width = Math.min(viewport.width, BROWSER_FRAME_MAX_WIDTH * 4);
  const height = Math.min(viewport.height, BROWSER_FRAME_MAX_HEIGHT * 4);
  const delta = z.number().finite().min(-BROWSER_WHEEL_MAX).max(BROWSER_WHEEL_MAX).optional();
  const mouse = z
    .object({
      kind: z.literal('mouse'),
      type: z.enum(['down', 'up', 'move', 'wheel']),
      x: z.number().finite().min(0).max(width),
      y: z.number().finite().min(0).max(height),
      button: z.enum(['left', 'middle', 'right']).optional(),
      clickCount: z.number().int().min(1).max(3).optional(),
      deltaX: delta,
      deltaY: delta,
    })
    .strict();
  const key = z
    .object({
      kind: z.literal('key'),
      type: z.enum(['down', 'up']),
      key: keyText,
      code: keyText.optional(),
      text: keyText.optional(),
      modifiers: z.number().int().min(0).max(15).optional(),
    })
    .strict();
  return z.discriminatedUnion('kind', [mouse, key]);
}
