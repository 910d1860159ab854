import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { sql } from '../sql';

export interface EncryptedSecret {
  ciphertext: Uint8Array;
  iv: Uint8Array;
  authTag: Uint8Array;
  keyId: string;
}

export interface ProviderCredentialStatus {
  provider: string;
  updatedAt: Date;
}

@Injectable()
export class ProviderCredentialRepository {
  constructor(private readonly prisma: PrismaService) {}

  async upsert(teamId: string, provider: string, secret: EncryptedSecret): Promise<ProviderCredentialStatus> {
    const data = {
      ciphertext: Buffer.from(secret.ciphertext),
      iv: Buffer.from(secret.iv),
      authTag: Buffer.from(secret.authTag),
      keyId: secret.keyId,
    };
    return this.prisma.providerCredential.upsert({
      where: { teamId_provider: { teamId, provider } },
      create: { teamId, provider, ...data },
      update: data,
      select: { provider: true, updatedAt: true },
    });
  }

  findStatus(teamId: string, provider: string): Promise<ProviderCredentialStatus | null> {
    return this.prisma.providerCredential.findUnique({
      where: { teamId_provider: { teamId, provider } },
      select: { provider: true, updatedAt: true },
    });
  }

  /** For the worker that calls the provider; never returned over HTTP. */
  async findSecret(teamId: string, provider: string): Promise<EncryptedSecret | null> {
    // Direct SQL (sql.ts): every run's start reads its key. bytea columns come back as Buffers.
    const [row] = await this.prisma.sql.rows<EncryptedSecret>(sql`
      SELECT "ciphertext", "iv", "authTag", "keyId" FROM "ProviderCredential" WHERE "teamId" = ${teamId}::uuid AND "provider" = ${provider}`);
    return row ?? null;
  }

  async remove(teamId: string, provider: string): Promise<boolean> {
    const { count } = await this.prisma.providerCredential.deleteMany({ where: { teamId, provider } });
    return count > 0;
  }
}
