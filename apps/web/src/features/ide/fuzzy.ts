// Fuzzy matching for quick open and the command palette: every query character must appear in
// order; matches in the file name, at word starts and in runs score higher. Pure, unit-tested.

export interface FuzzyMatch<T> {
  item: T;
  score: number;
  /** Indexes of the matched characters in the text, for highlighting. */
  positions: number[];
}

const isBoundary = (text: string, i: number) => i === 0 || '/._- '.includes(text[i - 1]) || (text[i] !== text[i].toLowerCase() && text[i - 1] === text[i - 1].toLowerCase());

export function fuzzyScore(query: string, text: string): { score: number; positions: number[] } | null {
  const q = query.replace(/\s+/g, '').toLowerCase();
  if (!q) return { score: 0, positions: [] };
  const lower = text.toLowerCase();
  const nameStart = text.lastIndexOf('/') + 1;
  // Prefer matching inside the file name: try from the name first, then from the start.
  for (const from of nameStart > 0 ? [nameStart, 0] : [0]) {
    const positions: number[] = [];
    let score = 0;
    let t = from;
    for (const ch of q) {
      const at = lower.indexOf(ch, t);
      if (at < 0) break;
      const prev = positions[positions.length - 1];
      score += 1;
      if (prev !== undefined && at === prev + 1) score += 5;
      if (isBoundary(text, at)) score += 3;
      if (at >= nameStart) score += 2;
      positions.push(at);
      t = at + 1;
    }
    if (positions.length === q.length) return { score: score - text.length / 100, positions };
  }
  return null;
}

export function fuzzyFilter<T>(query: string, items: T[], text: (item: T) => string, limit = 50): FuzzyMatch<T>[] {
  const out: FuzzyMatch<T>[] = [];
  for (const item of items) {
    const m = fuzzyScore(query, text(item));
    if (m) out.push({ item, ...m });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, limit);
}
