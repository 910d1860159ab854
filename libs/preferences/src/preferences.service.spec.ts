import { normalisePreferences } from './preferences.service';

describe(normalisePreferences.name, () => {
  it('should fill every missing or invalid field with its default', () => {
    expect(normalisePreferences(undefined)).toEqual({ editorFontSize: 14, tabSize: 2, wordWrap: 'off', theme: 'light' });
    expect(normalisePreferences({ editorFontSize: 99, tabSize: 4, wordWrap: 'sometimes', theme: 'dark', extra: 1 })).toEqual({ editorFontSize: 14, tabSize: 4, wordWrap: 'off', theme: 'dark' });
  });
});
