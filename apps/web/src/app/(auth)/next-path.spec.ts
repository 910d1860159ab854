import { nextPath } from './next-path';

describe(nextPath.name, () => {
  it('should return to the page that sent the user to login when it is a path of this site', () => {
    expect(nextPath('?next=%2Fteams%2Fabc')).toBe('/teams/abc');
    expect(nextPath('?next=' + encodeURIComponent('/workspaces/w1?tab=files#x'))).toBe('/workspaces/w1?tab=files#x');
  });

  it('should go to the teams page when no page is given', () => {
    expect(nextPath('')).toBe('/teams');
  });

  it('should refuse to leave the site when next points elsewhere', () => {
    const elsewhere = [
      'https://evil.example',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      // Browsers drop tabs and newlines inside URLs and read "\" as "/": these are //evil.example.
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '/\t\\evil.example',
      '\\/evil.example',
      ' //evil.example',
      'evil.example',
    ];
    for (const next of elsewhere) {
      expect({ next, to: nextPath('?next=' + encodeURIComponent(next)) }).toEqual({ next, to: '/teams' });
    }
  });
});
