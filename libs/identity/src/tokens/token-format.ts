import { randomSecret } from '../auth/secrets';

// "h_<prefix>_<secret>": the prefix finds the row and is safe to show in lists; only the hash of
// the whole token is stored. The "h_" marker makes leaked tokens easy to spot by secret scanners.
const TOKEN_RE = /^h_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const ALPHANUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function newApiToken(): { prefix: string; token: string } {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  const prefix = Array.from(bytes, (b) => ALPHANUM[b % ALPHANUM.length]).join('');
  return { prefix, token: `h_${prefix}_${randomSecret(32)}` };
}

export function parseApiToken(value: string): { prefix: string } | null {
  const m = TOKEN_RE.exec(value);
  return m ? { prefix: m[1] } : null;
}
