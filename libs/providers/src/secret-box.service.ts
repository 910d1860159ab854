import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptedSecret } from '@h/db';
import { MasterKeyService } from './master-key.service';

export class SecretUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnavailableError';
  }
}

// AES-256-GCM with a fresh 96-bit IV per secret; `aad` binds a ciphertext to its owner so a row
// copied to another team does not decrypt.
@Injectable()
export class SecretBoxService {
  constructor(private readonly masterKey: MasterKeyService) {}

  seal(plaintext: string, aad: string): EncryptedSecret {
    const { key, id } = this.masterKey.get();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(aad));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { ciphertext, iv, authTag: cipher.getAuthTag(), keyId: id };
  }

  open(secret: EncryptedSecret, aad: string): string {
    const { key, id } = this.masterKey.get();
    if (secret.keyId !== id) {
      throw new SecretUnavailableError('This secret was encrypted with a different master key; set the provider key again.');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(secret.iv));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(Buffer.from(secret.authTag));
      return Buffer.concat([decipher.update(Buffer.from(secret.ciphertext)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnavailableError('The stored secret failed its integrity check; set the provider key again.');
    }
  }
}
