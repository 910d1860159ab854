// The seed's secret-file block: every filesystem tool refuses these paths, and listings and
// searches hide them, so a prompt-injected model cannot read or overwrite credentials.
// (.env, .env.*, credentials.*, secret.*, *.pem, *.key, *.p12, *.pfx, config/*secret*, config/*key*;
// private SSH keys have no extension, so they are named explicitly.)

const SECRET_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx'];
const SSH_KEY_NAMES = new Set(['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519']);

export function isSecretPath(relPath: string): boolean {
  const parts = relPath.split('/').filter((p) => p.length > 0 && p !== '.');
  if (parts.length === 0) return false;
  const base = parts[parts.length - 1].toLowerCase();
  if (base === '.env' || base.startsWith('.env.')) return true;
  if (base.startsWith('credentials.') || base.startsWith('secret.') || base.startsWith('secrets.')) return true;
  if (SECRET_EXTENSIONS.some((ext) => base.endsWith(ext))) return true;
  if (SSH_KEY_NAMES.has(base)) return true;
  const inConfig = parts.slice(0, -1).some((p) => p.toLowerCase() === 'config');
  return inConfig && (base.includes('secret') || base.includes('key'));
}

export const SECRET_REFUSAL =
  'is a protected secret file (.env, keys, credentials); agent tools may not read, list or change it';
