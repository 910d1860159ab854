import { failureSettingsSection, SETTINGS_SECTIONS, settingsPlace } from './settings-sections';

describe('settingsPlace', () => {
  it('names a team setting by its heading, and says it is also on the team page', () => {
    expect(settingsPlace('deepseekKey')).toBe("Settings → DeepSeek API key (a workspace's Settings, or the team page)");
  });

  it('names an entry within a section', () => {
    expect(settingsPlace('customProviders', 'acme')).toBe("Settings → OpenAI-compatible providers → acme (a workspace's Settings, or the team page)");
  });

  it('sends a workspace-only setting to the workspace Settings alone', () => {
    expect(settingsPlace('modelPresets')).toBe('Settings → Model presets');
  });

  it('gives every section its own link target', () => {
    const ids = Object.values(SETTINGS_SECTIONS).map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('failureSettingsSection', () => {
  it("should name the key's section of the session's engine and provider for failures Settings mends", () => {
    expect(failureSettingsSection('PROVIDER_KEY_MISSING', { engine: 'h', providerId: null })).toBe('deepseekKey');
    expect(failureSettingsSection('PROVIDER_AUTH_FAILED', { engine: 'h', providerId: 'p1' })).toBe('customProviders');
    expect(failureSettingsSection('PROVIDER_KEY_UNREADABLE', { engine: 'claude-code', providerId: null })).toBe('anthropicKey');
  });

  it('should name no section for failures Settings cannot mend', () => {
    for (const code of ['PROVIDER_RATE_LIMITED', 'STEP_LIMIT', 'SANDBOX_UNAVAILABLE', 'INTERNAL']) {
      expect(failureSettingsSection(code, { engine: 'h', providerId: null })).toBeUndefined();
    }
  });
});
