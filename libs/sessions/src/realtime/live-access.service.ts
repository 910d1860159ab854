import { Injectable } from '@nestjs/common';
import type { ErrorCode } from '@h/contracts';
import { mapException } from '@h/http';
import { AccessService, AuthService, Principal } from '@h/identity';

export interface LiveCredentials {
  bearer?: string;
  sessionToken?: string;
}

export type LiveVerdict = { ok: true; principal: Principal } | { ok: false; code: ErrorCode; message: string } | { ok: 'unknown' };

// A stream (SSE or Socket.IO) outlives the request that opened it. Its credentials and the
// caller's membership are checked again on a timer, so a logout, a revoked token or a removal
// from the team also ends what that person was watching.
@Injectable()
export class LiveAccessService {
  constructor(
    private readonly auth: AuthService,
    private readonly access: AccessService,
  ) {}

  /** Whether the credentials still stand and may still read `sessionId` (when given). */
  async verdict(credentials: LiveCredentials, sessionId?: string): Promise<LiveVerdict> {
    try {
      const principal = await this.auth.authenticate(credentials);
      if (!principal) return { ok: false, code: 'UNAUTHENTICATED', message: 'The session or API token behind this stream has ended.' };
      if (sessionId) await this.access.check(principal, 'session', sessionId, 'viewer');
      return { ok: true, principal };
    } catch (err) {
      const { status, code, message } = mapException(err);
      // A database hiccup is not a verdict: keep the stream and ask again next time.
      return status >= 500 ? { ok: 'unknown' } : { ok: false, code, message };
    }
  }
}
