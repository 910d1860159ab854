import { guessScope, normalizeKey, resolveScope } from './memory-key';

describe(normalizeKey.name, () => {
  it('should give spelling variants of a key one spelling', () => {
    for (const k of ['Indent Style', 'indent-style', 'indent_style', 'indentStyle', '  INDENT   style ', 'Indent-Style!']) expect(normalizeKey(k)).toBe('indent-style');
  });

  it('should fold accents and keep file names with their dot', () => {
    expect(normalizeKey('Café Öffnungszeit')).toBe('cafe-offnungszeit');
    expect(normalizeKey('config for server.ts')).toBe('config-for-server.ts');
  });

  it('should answer empty when no letter or digit is left', () => {
    expect(normalizeKey(' -- !! ')).toBe('');
  });

  it('should keep keys within the key limit', () => {
    expect(normalizeKey('word '.repeat(100)).length).toBeLessThanOrEqual(120);
    expect(normalizeKey('word '.repeat(100)).endsWith('-')).toBe(false);
  });
});

describe(guessScope.name, () => {
  it('should force identity and global facts to the user', () => {
    for (const key of ['timezone', 'Preferred Model', 'language', 'email', 'my-editor', 'response-style', 'preferred-test-runner']) expect([key, guessScope(key, 'x')]).toEqual([key, 'user']);
  });

  it('should force codebase-specific keys and code paths to the project', () => {
    for (const key of ['api-auth-method', 'server-port', 'database-url', 'test-command', 'src/app.module.ts']) expect([key, guessScope(key, 'x')]).toEqual([key, 'project']);
    expect(guessScope('entry point', 'apps/api/src/main.ts')).toBe('project');
  });

  it('should not know for a key the rules do not cover', () => {
    expect(guessScope('favourite-colour', 'blue')).toBeNull();
  });
});

describe(resolveScope.name, () => {
  it('should let an explicit scope win over the guess', () => {
    expect(resolveScope('project', 'timezone', 'UTC')).toBe('project');
    expect(resolveScope('user', 'server-port', '3000')).toBe('user');
  });

  it('should fall back to project memory when neither says', () => {
    expect(resolveScope(undefined, 'favourite-colour', 'blue')).toBe('project');
    expect(resolveScope(undefined, 'timezone', 'UTC')).toBe('user');
  });
});
