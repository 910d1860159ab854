import type { ModelProvider } from '@h/llm';

/** What a description may be at most (it becomes a tool result the agent reads). */
export const VISION_DESCRIPTION_MAX_CHARS = 4000;
/** A vision request that takes longer is given up: the tool then says so instead. */
export const VISION_TIMEOUT_MS = 60_000;

const PROMPT =
  'You describe browser screenshots for a coding agent that cannot see images. The image has a red coordinate grid every 100 px with labels. Describe the page: its layout, visible text, form fields, buttons and links with their approximate x,y coordinates in the image, and any error messages. Be concise and factual.';

/**
 * Describes a screenshot with the configured vision model (BROWSER_VISION_MODEL) of the run's own
 * provider, for agents whose model reads no images. Null on failure, so the tool still answers.
 */
export async function describeScreenshot(
  provider: ModelProvider,
  model: string,
  png: string,
  header: string,
  signal: AbortSignal,
): Promise<string | null> {
  const timeout = AbortSignal.timeout(VISION_TIMEOUT_MS);
  let text = '';
  try {
    for await (const e of provider.stream({
      model,
      thinking: false,
      maxTokens: 1500,
      signal: AbortSignal.any([signal, timeout]),
      messages: [
        { role: 'system', content: PROMPT },
        { role: 'user', content: header, images: [{ mimeType: 'image/png', data: png }] },
      ],
    })) {
      if (e.type === 'text') text += e.delta;
      if (text.length > VISION_DESCRIPTION_MAX_CHARS) break;
    }
  } catch {
    return text ? text.slice(0, VISION_DESCRIPTION_MAX_CHARS) : null;
  }
  return text.trim() ? text.trim().slice(0, VISION_DESCRIPTION_MAX_CHARS) : null;
}
