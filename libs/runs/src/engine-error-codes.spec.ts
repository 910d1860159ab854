import { ERROR_CODES } from '@h/contracts';
import { apiErrorCode } from './engine-error-codes';

describe(apiErrorCode.name, () => {
  it('should turn the engine and provider codes into registered API codes', () => {
    expect(apiErrorCode('step_limit')).toBe('STEP_LIMIT');
    expect(apiErrorCode('model_auth')).toBe('PROVIDER_AUTH_FAILED');
    expect(apiErrorCode('model_context_length')).toBe('CONTEXT_TOO_LONG');
    for (const code of ['no_completion', 'internal_error', 'model_error', 'model_stream_restarted', 'model_server', 'model_timeout']) {
      expect(Object.hasOwn(ERROR_CODES, apiErrorCode(code))).toBe(true);
    }
  });

  it('should keep API codes and make an unknown engine code INTERNAL', () => {
    expect(apiErrorCode('SANDBOX_UNAVAILABLE')).toBe('SANDBOX_UNAVAILABLE');
    expect(apiErrorCode('model_something_new')).toBe('INTERNAL');
  });
});
