import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, parseEnv } from '@h/config';
import { MasterKeyService } from './master-key.service';
import { SecretBoxService, SecretUnavailableError } from './secret-box.service';

function boxWith(env: Record<string, string>): { box: SecretBoxService; keys: MasterKeyService } {
  const keys = new MasterKeyService(new AppConfig(parseEnv(env)));
  return { box: new SecretBoxService(keys), keys };
}

describe(SecretBoxService.name, () => {
  it('should round-trip a secret without the plaintext in the ciphertext', () => {
    const { box } = boxWith({ H_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') });
    const sealed = box.seal('sk-live-secret-123', 'provider:t1:deepseek');
    expect(Buffer.from(sealed.ciphertext).toString('utf8')).not.toContain('sk-live');
    expect(box.open(sealed, 'provider:t1:deepseek')).toBe('sk-live-secret-123');
  });

  it('should refuse a ciphertext moved to another team', () => {
    const { box } = boxWith({ H_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') });
    const sealed = box.seal('sk-1', 'provider:t1:deepseek');
    expect(() => box.open(sealed, 'provider:t2:deepseek')).toThrow(SecretUnavailableError);
  });

  it('should refuse a ciphertext sealed under another master key', () => {
    const a = boxWith({ H_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') }).box;
    const b = boxWith({ H_MASTER_KEY: Buffer.alloc(32, 2).toString('base64') }).box;
    expect(() => b.open(a.seal('sk-1', 'x'), 'x')).toThrow(/different master key/);
  });

  it('should create a private key file on first start and reuse it after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'h-key-'));
    const first = boxWith({ H_DATA_DIR: dir });
    const sealed = first.box.seal('sk-9', 'x');
    const file = join(dir, 'master.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(boxWith({ H_DATA_DIR: dir }).box.open(sealed, 'x')).toBe('sk-9');
  });
});
