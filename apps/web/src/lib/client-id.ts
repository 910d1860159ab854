// Ids the browser makes up for idempotent writes (e.g. a message's clientMessageId). Uses
// getRandomValues, which unlike randomUUID also exists on plain-HTTP origins.
export function makeClientId(prefix = 'web'): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
