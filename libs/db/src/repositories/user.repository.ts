import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { InvitationRefusal, takeInvitation } from './invitation.repository';
import type { TeamRoleName } from './team.repository';

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  isInstanceAdmin: boolean;
  createdAt: Date;
}

export type CreateAccountResult =
  | { user: UserRecord; joined: { teamId: string; role: TeamRoleName; invitationId: string } | null }
  | { refused: 'not_first' | InvitationRefusal };

const userSelect = { id: true, email: true, name: true, isInstanceAdmin: true, createdAt: true } as const;

/** Thrown inside the sign-up transaction to roll the new account back. */
class Refused extends Error {
  constructor(readonly reason: InvitationRefusal) {
    super(reason);
  }
}

@Injectable()
export class UserRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Creates an account in one transaction that holds an instance-wide lock: the first account of
   * an instance (no users yet) becomes its admin, so of two parallel first sign-ups exactly one is
   * admin. `onlyIfFirst` refuses every account but the first (sign-up closed or invite-only without
   * an invitation); `invitationTokenHash` joins the invitation's team, or rolls the account back.
   */
  async createAccount(
    input: { email: string; name: string; passwordHash: string },
    options: { onlyIfFirst: boolean; invitationTokenHash?: string },
  ): Promise<CreateAccountResult> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('h-first-account'))`;
        const first = (await tx.user.findFirst({ select: { id: true } })) === null;
        if (options.onlyIfFirst && !first) return { refused: 'not_first' as const };
        const user = await tx.user.create({ data: { ...input, isInstanceAdmin: first }, select: userSelect });
        if (!options.invitationTokenHash) return { user, joined: null };
        const taken = await takeInvitation(tx, options.invitationTokenHash, user);
        if ('refused' in taken) throw new Refused(taken.refused);
        return { user, joined: taken.ok };
      });
    } catch (err) {
      if (err instanceof Refused) return { refused: err.reason };
      throw err;
    }
  }

  /** True once any account exists (the first sign-up is always allowed). */
  async anyExists(): Promise<boolean> {
    return (await this.prisma.user.findFirst({ select: { id: true } })) !== null;
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
