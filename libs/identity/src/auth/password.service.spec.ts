import argon2 from 'argon2';
import { PasswordService } from './password.service';

describe(PasswordService.name, () => {
  const passwords = new PasswordService();

  it('should verify the password it hashed and nothing else', async () => {
    const hash = await passwords.hash('correct horse battery staple');
    expect(hash).not.toContain('correct horse');
    await expect(passwords.verify(hash, 'correct horse battery staple')).resolves.toBe(true);
    await expect(passwords.verify(hash, 'correct horse battery stapl')).resolves.toBe(false);
    await expect(passwords.verify(hash, 'Correct horse battery staple')).resolves.toBe(false);
  });

  it('should answer false, not throw, for an unknown account or a broken hash', async () => {
    await expect(passwords.verify(null, 'anything')).resolves.toBe(false);
    await expect(passwords.verify('not-an-argon2-hash', 'anything')).resolves.toBe(false);
  });

  it('should ask for a rehash of a hash made with weaker parameters', async () => {
    const weak = await argon2.hash('pw', { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    expect(passwords.needsRehash(weak)).toBe(true);
    expect(passwords.needsRehash(await passwords.hash('pw'))).toBe(false);
  });
});
