import { Injectable } from '@nestjs/common';
import { AppConfig } from '@h/config';
import { ApiTokenRepository, AuthSessionRepository, RateLimitRepository, UserRecord, UserRepository } from '@h/db';
import { AppException } from '@h/http';
import { AuditService } from '../audit/audit.service';
import { Principal } from '../access/principal';
import { PasswordService } from './password.service';
import { randomSecret, safeEqual, sha256 } from './secrets';
import { parseApiToken } from '../tokens/token-format';

export interface IssuedSession {
  user: UserRecord;
  sessionToken: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UserRepository,
    private readonly sessions: AuthSessionRepository,
    private readonly tokens: ApiTokenRepository,
    private readonly passwords: PasswordService,
    private readonly rateLimits: RateLimitRepository,
    private readonly audit: AuditService,
  ) {}

  async signup(input: { email: string; password: string; name: string }, meta: RequestMeta): Promise<IssuedSession> {
    if (!this.config.env.SIGNUP_ENABLED) {
      throw AppException.forbidden('Sign-up is turned off on this H; ask an admin to add you to a team.', 'SIGNUP_DISABLED');
    }
    const email = input.email.trim().toLowerCase();
    if (await this.users.findByEmail(email)) {
      throw AppException.conflict('EMAIL_TAKEN', 'An account with this email already exists; log in instead.');
    }
    const passwordHash = await this.passwords.hash(input.password);
    const user = await this.users.create({ email, name: input.name.trim(), passwordHash });
    await this.audit.record({ action: 'auth.signup', actorUserId: user.id, targetType: 'user', targetId: user.id, ip: meta.ip });
    return this.issueSession(user, meta);
  }

  async login(input: { email: string; password: string }, meta: RequestMeta): Promise<IssuedSession> {
    const email = input.email.trim().toLowerCase();
    const { LOGIN_MAX_ATTEMPTS: max, LOGIN_WINDOW_SECONDS: window } = this.config.env;
    // Two buckets: one account from one address, and one address across all accounts.
    const buckets = [`login:${sha256(`${meta.ip}|${email}`)}`, `login-ip:${sha256(meta.ip ?? '')}`];
    const limits = [max, max * 5];
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
    await Promise.all([this.rateLimits.reset(buckets[0]), this.rateLimits.release(buckets[1])]);
    if (this.passwords.needsRehash(creds.passwordHash)) {
      await this.users.updatePasswordHash(creds.id, await this.passwords.hash(input.password));
    }
    const { passwordHash: _omit, ...user } = creds;
    await this.audit.record({ action: 'auth.login', actorUserId: user.id, targetType: 'user', targetId: user.id, ip: meta.ip });
    return this.issueSession(user, meta);
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
