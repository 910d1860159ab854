import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}

const userSelect = { id: true, email: true, name: true, createdAt: true } as const;

@Injectable()
export class UserRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(input: { email: string; name: string; passwordHash: string }): Promise<UserRecord> {
    return this.prisma.user.create({ data: input, select: userSelect });
  }

  findById(id: string): Promise<UserRecord | null> {
    return this.prisma.user.findUnique({ where: { id }, select: userSelect });
  }

  findByEmail(email: string): Promise<UserRecord | null> {
    return this.prisma.user.findUnique({ where: { email }, select: userSelect });
  }

  /** The only read that returns the password hash; used by login alone. */
  findCredentials(email: string): Promise<(UserRecord & { passwordHash: string }) | null> {
    return this.prisma.user.findUnique({ where: { email }, select: { ...userSelect, passwordHash: true } });
  }

  async updatePasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.prisma.user.update({ where: { id }, data: { passwordHash } });
  }
}
