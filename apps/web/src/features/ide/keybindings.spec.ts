import { matchesKeybinding, type KeyLike } from './keybindings';

const ev = (over: Partial<KeyLike>): KeyLike => ({ key: '', code: '', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...over });

describe(matchesKeybinding.name, () => {
  it('should take Ctrl or Cmd for Mod', () => {
    expect(matchesKeybinding(ev({ key: 's', code: 'KeyS', ctrlKey: true }), 'Mod+S')).toBe(true);
    expect(matchesKeybinding(ev({ key: 's', code: 'KeyS', metaKey: true }), 'Mod+S')).toBe(true);
    expect(matchesKeybinding(ev({ key: 's', code: 'KeyS' }), 'Mod+S')).toBe(false);
  });

  it('should tell Mod+P from Mod+Shift+P', () => {
    const shiftP = ev({ key: 'P', code: 'KeyP', ctrlKey: true, shiftKey: true });
    expect(matchesKeybinding(shiftP, 'Mod+Shift+P')).toBe(true);
    expect(matchesKeybinding(shiftP, 'Mod+P')).toBe(false);
  });

  it('should match letters by physical key when Alt changes the character', () => {
    expect(matchesKeybinding(ev({ key: '∑', code: 'KeyW', metaKey: true, altKey: true }), 'Mod+Alt+W')).toBe(true);
  });

  it('should match Mod+` by the key left of 1 on any layout', () => {
    expect(matchesKeybinding(ev({ key: '`', code: 'Backquote', ctrlKey: true }), 'Mod+`')).toBe(true);
    expect(matchesKeybinding(ev({ key: 'Dead', code: 'Backquote', ctrlKey: true }), 'Mod+`')).toBe(true);
    expect(matchesKeybinding(ev({ key: '`', code: 'Backquote' }), 'Mod+`')).toBe(false);
    expect(matchesKeybinding(ev({ key: '`', code: 'IntlBackslash', ctrlKey: true }), 'Mod+`')).toBe(true);
    expect(matchesKeybinding(ev({ key: '1', code: 'Digit1', ctrlKey: true }), 'Mod+`')).toBe(false);
  });
});
