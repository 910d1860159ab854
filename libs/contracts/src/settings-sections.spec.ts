import { SETTINGS_SECTIONS, settingsPlace } from './settings-sections';

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
