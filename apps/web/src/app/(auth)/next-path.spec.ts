import { nextPath } from './next-path';

describe(nextPath.name, () => {
  it('should return to the page that sent the user to login when it is a path of this site', () => {
    expect(nextPath('?next=%2Fteams%2Fabc')).toBe('/teams/abc');
  });

  it('should go to the teams page when no page is given', () => {
    expect(nextPath('')).toBe('/teams');
  });

  it('should refuse to leave the site when next points elsewhere', () => {
    for (const next of ['https://evil.example', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      expect(nextPath('?next=' + encodeURIComponent(next))).toBe('/teams');
    }
  });
});
