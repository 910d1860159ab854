// How usage figures read on the team page.

/** Dollars: cents from $1 on, four decimals below (a scripted or cached run costs fractions of a cent). */
export function formatUsd(n: number): string {
  return `$${n >= 1 || n === 0 ? n.toFixed(2) : n.toFixed(4)}`;
}

export function formatRatio(r: number | null): string {
  return r === null ? '—' : `${Math.round(r * 100)} %`;
}

export function formatTokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)} M` : n >= 10_000 ? `${Math.round(n / 1000)} k` : String(n);
}

/** The month before or after `month` (YYYY-MM). */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
