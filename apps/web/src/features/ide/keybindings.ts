// Keybindings as the registry writes them ("Mod+Shift+P": Mod is Ctrl, or Cmd on a Mac).

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export function matchesKeybinding(event: KeyLike, binding: string): boolean {
  const parts = binding.split('+');
  const key = parts[parts.length - 1];
  const mods = new Set(parts.slice(0, -1).map((p) => p.toLowerCase()));
  const mod = event.ctrlKey || event.metaKey;
  if (mods.has('mod') !== mod || mods.has('shift') !== event.shiftKey || mods.has('alt') !== event.altKey) return false;
  // Letters by their physical key: Alt or Shift change event.key (Alt+W is "∑" on a Mac).
  if (/^[A-Z]$/i.test(key)) return event.code === `Key${key.toUpperCase()}`;
  // The key that prints it, or the key left of 1 whatever the layout prints there (a dead "^" on a
  // German keyboard), as VS Code's Ctrl+`.
  if (key === '`') return event.key === '`' || event.code === 'Backquote';
  return event.key.toLowerCase() === key.toLowerCase();
}
