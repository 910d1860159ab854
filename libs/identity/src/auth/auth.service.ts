import { Injectable } from '@nestjs/common';
import type { SignupAvailability, SignupPolicy, TeamRole } from '@h/contracts';
import { AppConfig } from '@h/config';
import { ApiTokenRepository, AuthSessionRepository, RateLimitRepository, UserRecord, UserRepository } from '@h/db';
import { AppException } from '@h/http';
import { AuditService } from '../audit/audit.service';
import { Principal } from '../access/principal';
import { invitationRefused } from '../invitations/invitation-errors';
import { InvitationService } from '../invitations/invitation.service';
import { addressGroup } from './client-address';
import { PasswordService } from './password.service';
import { randomSecret, safeEqual, sha256 } from './secrets';
import { parseApiToken } from '../tokens/token-format';

export interface IssuedSession {
  user: UserRecord;
  sessionToken: string;
  csrfToken: string;
  expiresAt: Date;
  /** The team an invitation given with the sign-up (or sign-in) joined. */
  joined?: { teamId: string; role: TeamRole } | null;
}

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

// Said for every sign-up that cannot go ahead because of the email, so the answer never tells
// whether an account uses it (see README "Accounts" for what this can and cannot hide).
const SIGNUP_FAILED = () =>
  AppException.badRequest(
    'SIGNUP_FAILED',
    'We could not create an account with these details. If you already have an account, log in instead.',
  );

@Injectable()
export class AuthService {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UserRepository,
    private readonly sessions: AuthSessionRepository,
    private readonly tokens: ApiTokenRepository,
    private readonly passwords: PasswordService,
    private readonly rateLimits: RateLimitRepository,
    private readonly invitations: InvitationService,
    private readonly audit: AuditService,
  ) {}

  async signup(input: { email: string; password: string; name: string; invitationToken?: string }, meta: RequestMeta): Promise<IssuedSession> {
    const email = input.email.trim().toLowerCase();
    const { SIGNUP_MAX_ATTEMPTS: max, SIGNUP_WINDOW_SECONDS: window } = this.config.env;
    const state = await this.rateLimits.hit(`signup-ip:${sha256(addressGroup(meta.ip))}`, window);
    if (state.count > max) {
      throw AppException.tooManyRequests(
        `Too many sign-ups from your network; try again in ${Math.ceil(state.retryAfterSeconds / 60)} minute(s).`,
        state.retryAfterSeconds || window,
      );
    }
    // Decided before the email is looked at, so refusals never depend on it.
    const policy = this.config.signupPolicy;
    const tokenHash = input.invitationToken ? sha256(input.invitationToken) : undefined;
    const onlyIfFirst = policy === 'closed' || (policy === 'invite' && !tokenHash);
    if (onlyIfFirst && (await this.users.anyExists())) throw this.policyRefusal(policy);
    if (tokenHash) await this.invitations.assertUsable(tokenHash);

    if (await this.users.findByEmail(email)) return this.signupExisting({ ...input, email }, meta);
    const passwordHash = await this.passwords.hash(input.password);
    const result = await this.users
      .createAccount({ email, name: input.name.trim(), passwordHash }, { onlyIfFirst, invitationTokenHash: tokenHash })
      .catch((err: { code?: string }) => {
        // The email was taken between the check and the insert: the same answer as above.
        if (err.code === 'P2002') throw SIGNUP_FAILED();
        throw err;
      });
    if ('refused' in result) {
      if (result.refused === 'not_first') throw this.policyRefusal(policy);
      throw invitationRefused(result.refused);
    }
    const { user, joined } = result;
    await this.audit.record({
      action: 'auth.signup',
      actorUserId: user.id,
      targetType: 'user',
      targetId: user.id,
      ip: meta.ip,
      metadata: user.isInstanceAdmin ? { instanceAdmin: true } : undefined,
    });
    if (joined) await this.invitations.recordJoin(user.id, joined, meta.ip);
    return { ...(await this.issueSession(user, meta)), joined };
  }

  /**
   * Sign-up with an email that has an account: with its password this is a sign-in (accepting the
   * invitation if one came along); otherwise the same answer whatever the reason.
   */
  private async signupExisting(input: { email: string; password: string; invitationToken?: string }, meta: RequestMeta): Promise<IssuedSession> {
    let user: UserRecord;
    try {
      user = await this.verifyLogin(input, meta);
    } catch (err) {
      if (err instanceof AppException && err.code === 'INVALID_CREDENTIALS') throw SIGNUP_FAILED();
      throw err;
    }
    const joined = input.invitationToken ? await this.invitations.accept(user, input.invitationToken, meta.ip) : null;
    return { ...(await this.issueSession(user, meta)), joined };
  }

  async login(input: { email: string; password: string }, meta: RequestMeta): Promise<IssuedSession> {
    return this.issueSession(await this.verifyLogin(input, meta), meta);
  }

  private async verifyLogin(input: { email: string; password: string }, meta: RequestMeta): Promise<UserRecord> {
    const email = input.email.trim().toLowerCase();
    const { LOGIN_MAX_ATTEMPTS: max, LOGIN_ACCOUNT_MAX_ATTEMPTS: perAccount, LOGIN_WINDOW_SECONDS: window } = this.config.env;
    const from = addressGroup(meta.ip);
    // Three buckets: one account from one address, one address across all accounts, and one
    // account from every address together (guesses spread over many addresses).
    const buckets = [`login:${sha256(`${from}|${email}`)}`, `login-ip:${sha256(from)}`, `login-account:${sha256(email)}`];
    const limits = [max, max * 5, perAccount];
    // Count the attempt before checking the password: with check-then-count, parallel guesses all
    // passed the check before any was counted (20 parallel tries got 12 through a limit of 3).
    // A successful login gives its count back below.
    const states = await Promise.all(buckets.map((b) => this.rateLimits.hit(b, window)));
    const blocked = states.findIndex((s, i) => s.count > limits[i]);
    if (blocked >= 0) {
      throw AppException.tooManyRequests(
        `Too many failed logins; try again in ${Math.ceil(states[blocked].retryAfterSeconds / 60)} minute(s).`,
        states[blocked].retryAfterSeconds || window,
      );
    }
    const creds = await this.users.findCredentials(email);
    const ok = await this.passwords.verify(creds?.passwordHash ?? null, input.password);
    if (!creds || !ok) {
      // Whoever failed is unknown: the account is the target of the attempt, not its actor.
      await this.audit.record({
        action: 'auth.login_failed',
        actorUserId: null,
        targetType: creds ? 'user' : null,
        targetId: creds?.id ?? null,
        ip: meta.ip,
        metadata: { reason: creds ? 'bad_password' : 'unknown_email' },
      });
      throw new AppException(401, 'INVALID_CREDENTIALS', 'Email or password is wrong.');
    }
    await Promise.all([this.rateLimits.reset(buckets[0]), this.rateLimits.release(buckets[1]), this.rateLimits.release(buckets[2])]);
    if (this.passwords.needsRehash(creds.passwordHash)) {
      await this.users.updatePasswordHash(creds.id, await this.passwords.hash(input.password));
    }
    const { passwordHash: _omit, ...user } = creds;
    await this.audit.record({ action: 'auth.login', actorUserId: user.id, targetType: 'user', targetId: user.id, ip: meta.ip });
    return user;
  }

  async logout(principal: Principal, meta: RequestMeta): Promise<void> {
    if (principal.kind !== 'user') return;
    await this.sessions.revoke(principal.sessionId);
    await this.audit.record({
      action: 'auth.logout',
      actorUserId: principal.userId,
      targetType: 'auth_session',
      targetId: principal.sessionId,
      ip: meta.ip,
    });
  }

  /** Resolves a cookie session or bearer token to a principal, or null when neither is valid. */
  async authenticate(credentials: { sessionToken?: string; bearer?: string }): Promise<Principal | null> {
    if (credentials.bearer) return this.authenticateToken(credentials.bearer);
    if (credentials.sessionToken) {
      const session = await this.sessions.findActiveByTokenHash(sha256(credentials.sessionToken));
      if (!session) return null;
      return { kind: 'user', userId: session.userId, sessionId: session.id, csrfToken: session.csrfToken };
    }
    return null;
  }

  /** What the sign-up page offers a person without an invitation (the first account is always open). */
  async signupAvailability(): Promise<SignupAvailability> {
    const policy = this.config.signupPolicy;
    if (policy === 'open' || !(await this.users.anyExists())) return 'open';
    return policy;
  }

  private policyRefusal(policy: SignupPolicy): AppException {
    return policy === 'invite'
      ? AppException.forbidden('Sign-up on this H needs an invitation link; ask a team admin to invite you.', 'SIGNUP_INVITE_ONLY')
      : AppException.forbidden('Sign-up is turned off on this H; ask its admin for an account.', 'SIGNUP_DISABLED');
  }

  private async authenticateToken(presented: string): Promise<Principal | null> {
    const parsed = parseApiToken(presented);
    if (!parsed) return null;
    const token = await this.tokens.findByPrefix(parsed.prefix);
    if (!token || !safeEqual(token.secretHash, sha256(presented))) return null;
    if (token.revokedAt || (token.expiresAt && token.expiresAt <= new Date())) return null;
    await this.tokens.markUsed(token.id);
    return {
      kind: 'token',
      userId: token.createdById,
      tokenId: token.id,
      teamId: token.teamId,
      workspaceId: token.workspaceId,
      scopes: token.scopes,
    };
  }

  private async issueSession(user: UserRecord, meta: RequestMeta): Promise<IssuedSession> {
    const sessionToken = randomSecret();
    const csrfToken = randomSecret(24);
    const expiresAt = new Date(Date.now() + this.config.env.SESSION_TTL_HOURS * 3600_000);
    await this.sessions.create({
      userId: user.id,
      tokenHash: sha256(sessionToken),
      csrfToken,
      expiresAt,
      ip: meta.ip ?? undefined,
      userAgent: meta.userAgent?.slice(0, 512) ?? undefined,
    });
    return { user, sessionToken, csrfToken, expiresAt };
  }
}
