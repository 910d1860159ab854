import { Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppConfig } from '@h/config';

export interface MasterKey {
  key: Buffer;
  /** Short fingerprint stored next to each ciphertext, so a rotated key is detected. */
  id: string;
}

// The key that encrypts provider keys at rest: H_MASTER_KEY when set, otherwise a key file created
// (mode 0600) in H_DATA_DIR on first start. Back the file up: without it stored keys are lost.
@Injectable()
export class MasterKeyService {
  private readonly logger = new Logger(MasterKeyService.name);
  private cached: MasterKey | null = null;

  constructor(private readonly config: AppConfig) {}

  get(): MasterKey {
    if (this.cached) return this.cached;
    const key = this.config.env.H_MASTER_KEY ? Buffer.from(this.config.env.H_MASTER_KEY, 'base64') : this.fromFile();
    this.cached = { key, id: createHash('sha256').update(key).digest('hex').slice(0, 12) };
    return this.cached;
  }

  private fromFile(): Buffer {
    const file = join(resolve(this.config.env.H_DATA_DIR), 'master.key');
    if (existsSync(file)) {
      const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
      if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key; restore it from backup or remove it`);
      return key;
    }
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    // 'wx' fails if another process created it meanwhile; then read theirs.
    try {
      writeFileSync(file, key.toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
      chmodSync(file, 0o600);
      this.logger.warn(`created a new master key file at ${file}; back it up (it decrypts stored provider keys)`);
      return key;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return this.fromFile();
      throw err;
    }
  }
}
