import { loginPathFor } from './api-client';

describe(loginPathFor.name, () => {
  it('should remember the page the user was on when the session ends', () => {
    expect(loginPathFor({ pathname: '/teams/t1', search: '?tab=tokens' })).toBe('/login?next=%2Fteams%2Ft1%3Ftab%3Dtokens');
  });

  it('should not loop back to the login page itself', () => {
    expect(loginPathFor({ pathname: '/login', search: '?next=%2Fteams' })).toBe('/login');
    expect(loginPathFor({ pathname: '/', search: '' })).toBe('/login');
  });
});
