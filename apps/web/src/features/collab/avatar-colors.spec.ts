import { colorOf, initialsOf } from './avatar-colors';

describe(initialsOf.name, () => {
  it('should take the first and last word\'s first letters', () => {
    expect(initialsOf('Grace Brewster Hopper')).toBe('GH');
  });
  it('should take two letters of a single name and a ? for none', () => {
    expect(initialsOf('ada')).toBe('AD');
    expect(initialsOf('   ')).toBe('?');
  });
});

describe(colorOf.name, () => {
  it('should give a person the same colour every time', () => {
    expect(colorOf('0b6f3c1e-1111-4c4c-9a9a-000000000001')).toBe(colorOf('0b6f3c1e-1111-4c4c-9a9a-000000000001'));
    expect(colorOf('x')).toMatch(/^#[0-9a-f]{6}$/);
  });
});
