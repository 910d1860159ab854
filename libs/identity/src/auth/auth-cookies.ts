import type { Response } from 'express';
import { AppConfig } from '@h/config';
import { CSRF_COOKIE, SESSION_COOKIE } from '@h/http';
import type { IssuedSession } from './auth.service';

export function setAuthCookies(res: Response, config: AppConfig, session: IssuedSession): void {
  const common = { sameSite: 'lax' as const, secure: config.secureCookies, path: '/', expires: session.expiresAt };
  res.cookie(SESSION_COOKIE, session.sessionToken, { ...common, httpOnly: true });
  // Readable by the page so it can echo it in the x-csrf-token header (double submit).
  res.cookie(CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false });
}

export function clearAuthCookies(res: Response, config: AppConfig): void {
  const common = { sameSite: 'lax' as const, secure: config.secureCookies, path: '/' };
  res.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
  res.clearCookie(CSRF_COOKIE, common);
}
