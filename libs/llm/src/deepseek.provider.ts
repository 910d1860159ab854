import { settingsPlace } from '@h/contracts';
import { OpenAICompatibleProvider, type ChatDialect, type TransportOptions } from './openai-compatible.provider';

export const DEEPSEEK_BASE_URL = 'https://api.deepseek.com';

/** DeepSeek's extensions: the thinking toggle, and reasoning sent back within a tool-calling turn. */
export const DEEPSEEK_DIALECT: ChatDialect = { thinkingToggle: true, reasoningRoundTrip: true };

export interface DeepSeekProviderOptions extends TransportOptions {
  apiKey: string;
  /** OpenAI-compatible base URL (the scripted server's `url` in tests). Default https://api.deepseek.com */
  baseUrl?: string;
  /** Name used in error messages. Default 'DeepSeek'. */
  displayName?: string;
}

/** DeepSeek: the generic OpenAI-compatible provider with DeepSeek's dialect, catalog and advice. */
export class DeepSeekProvider extends OpenAICompatibleProvider {
  constructor(options: DeepSeekProviderOptions) {
    super({
      ...options,
      id: 'deepseek',
      displayName: options.displayName ?? 'DeepSeek',
      baseUrl: options.baseUrl ?? DEEPSEEK_BASE_URL,
      dialect: DEEPSEEK_DIALECT,
      missingKeyMessage: `No DeepSeek API key is set. A team admin can add one under ${settingsPlace('deepseekKey')}.`,
      hints: {
        key: `${settingsPlace('deepseekKey')}; keys are created at platform.deepseek.com`,
        balance: 'Top it up at platform.deepseek.com, then retry.',
      },
    });
  }
}
