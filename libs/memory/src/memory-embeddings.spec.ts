import { cosine, embeddingText } from './memory-embeddings';
import { scoreMemory, words } from './memory-selection';

describe('memory embeddings', () => {
  it('should measure the angle between vectors, 0 for mismatched or empty ones', () => {
    expect(cosine([1, 0], [2, 0])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 3])).toBeCloseTo(0);
    expect(cosine([1, 1], [-1, -1])).toBeCloseTo(-1);
    expect(cosine([1, 2], [1, 2, 3])).toBe(0);
    expect(cosine([], [])).toBe(0);
  });

  it('should rank a memory sharing no word with the message by its similarity alone', () => {
    const entry = { id: 'a', key: 'indent-style', content: 'two spaces per level', scope: 'project' as const, category: 'convention' as const, tags: [], updatedAt: new Date() };
    const message = new Set(words('How wide should a tab be?'));
    expect(scoreMemory(entry, message)).toBe(0);
    expect(scoreMemory(entry, message, { similarity: new Map([['a', 0.9]]) })).toBeGreaterThan(5);
    // A dissimilar (negative) vector never pushes an entry below having none.
    expect(scoreMemory(entry, message, { similarity: new Map([['a', -0.9]]) })).toBe(0);
    expect(embeddingText(entry)).toBe('indent-style: two spaces per level');
  });
});
