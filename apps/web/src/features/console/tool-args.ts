// What a person needs to recognise a tool call at a glance: its path, command, pattern or URL.

const KEY_FIELDS = ['command', 'path', 'file_path', 'pattern', 'query', 'url', 'symbol', 'name'];

export function parseArgs(raw: unknown): Record<string, unknown> | null {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function keyArgument(raw: unknown): string {
  const args = parseArgs(raw);
  if (!args) return '';
  for (const field of KEY_FIELDS) {
    const value = args[field];
    if (typeof value === 'string' && value.trim()) return oneLine(value);
  }
  return '';
}

export function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
