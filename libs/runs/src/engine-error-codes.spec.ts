import { ERROR_CODES } from '@h/contracts';
import { apiErrorCode, asApiFailure } from './engine-error-codes';

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

describe(asApiFailure.name, () => {
  const usage = { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, costUsd: 0, requests: 0 };

  it("should name the key's Settings section on a run failure Settings mends, with the engine's code translated", () => {
    const failed = asApiFailure({ type: 'run.failed', data: { code: 'model_auth', message: 'rejected', usage } }, { engine: 'h', providerId: null });
    expect(failed).toEqual({ type: 'run.failed', data: { code: 'PROVIDER_AUTH_FAILED', message: 'rejected', usage, settings: 'deepseekKey' } });
  });

  it('should name no section on other failures, and only translate the code of an error event', () => {
    const failed = asApiFailure({ type: 'run.failed', data: { code: 'step_limit', message: 'too many steps', usage } }, { engine: 'h', providerId: null });
    expect(failed).toEqual({ type: 'run.failed', data: { code: 'STEP_LIMIT', message: 'too many steps', usage } });
    const error = asApiFailure({ type: 'error', data: { code: 'model_auth', message: 'rejected' } } as never, { engine: 'h', providerId: null });
    expect(error).toMatchObject({ type: 'error', data: { code: 'PROVIDER_AUTH_FAILED' } });
    expect((error as { data: object }).data).not.toHaveProperty('settings');
  });
});
