import { MEMORY_BLOCK_HEADER, memoryVersion, selectMemories, userProfileSubset, type RankableMemory } from './memory-selection';

let n = 0;
function entry(key: string, content: string, o: Partial<RankableMemory> = {}): RankableMemory {
  n++;
  return { id: `m${n}`, key, content, scope: 'project', category: 'general', tags: [], updatedAt: new Date(Date.UTC(2026, 0, 1, 0, n)), ...o };
}

describe(selectMemories.name, () => {
  it('should rank entries whose key, tags or content name the message first, within top K', () => {
    const all = [
      entry('deploy-target', 'Fly.io, region fra'),
      entry('test-command', 'npm run test:unit -- --runInBand', { tags: ['jest'] }),
      ...Array.from({ length: 10 }, (_, i) => entry(`note-${i}`, `unrelated fact ${i}`)),
      entry('indent-style', 'Two spaces, no tabs'),
    ];
    const s = selectMemories(all, 'The jest tests fail: run the test command and fix the indent', { maxBytes: 4000 });
    expect(s.entries.slice(0, 2).map((e) => e.key)).toEqual(['test-command', 'indent-style']);
    expect(s.entries).toHaveLength(6);
    expect(s.content.startsWith(MEMORY_BLOCK_HEADER)).toBe(true);
    expect(s.ids).toEqual(s.entries.map(memoryVersion));
  });

  it('should let the database text rank and embeddings lift an entry', () => {
    const a = entry('alpha', 'one');
    const b = entry('beta', 'two');
    expect(selectMemories([a, b], 'nothing shared', { maxBytes: 4000, topK: 1, signals: { textRank: new Map([[a.id, 0.9]]) } }).entries).toEqual([a]);
    expect(selectMemories([a, b], 'nothing shared', { maxBytes: 4000, topK: 1, signals: { similarity: new Map([[a.id, 0.9]]) } }).entries).toEqual([a]);
  });

  it('should fall back to the newest entries when nothing matches', () => {
    const old = entry('old', 'first');
    const recent = entry('recent', 'second');
    expect(selectMemories([old, recent], 'zzz', { maxBytes: 4000, topK: 1 }).entries).toEqual([recent]);
  });

  it('should keep the block within its byte budget and skip what was told at this version', () => {
    const big = entry('big', 'x'.repeat(3000));
    const small = entry('small', 'fits');
    const s = selectMemories([big, small], 'big small', { maxBytes: 400 });
    expect(s.entries).toEqual([small]);
    expect(Buffer.byteLength(s.content)).toBeLessThanOrEqual(400);
    expect(selectMemories([small], 'small', { maxBytes: 400, told: new Set([memoryVersion(small)]) }).content).toBe('');
    const changed = { ...small, updatedAt: new Date(small.updatedAt.getTime() + 1) };
    expect(selectMemories([changed], 'small', { maxBytes: 400, told: new Set([memoryVersion(small)]) }).entries).toEqual([changed]);
    expect(selectMemories([small], 'small', { maxBytes: 0 }).content).toBe('');
  });

  it('should list the user profile before project memory', () => {
    const s = selectMemories([entry('indent-style', 'tabs'), entry('timezone', 'UTC', { scope: 'user' })], 'x', { maxBytes: 4000 });
    expect(s.content.indexOf('About the user')).toBeLessThan(s.content.indexOf('About this project'));
  });
});

describe(userProfileSubset.name, () => {
  it('should give only user entries, preferences first, within 1,500 characters', () => {
    const all = [
      entry('server-port', '3000'),
      entry('timezone', 'Europe/Berlin', { scope: 'user', category: 'fact' }),
      entry('pref-tabs', 'I prefer tabs', { scope: 'user', category: 'preference' }),
      ...Array.from({ length: 40 }, (_, i) => entry(`fact-${i}`, 'y'.repeat(80), { scope: 'user' })),
    ];
    const text = userProfileSubset(all);
    expect(text.length).toBeLessThanOrEqual(1500);
    expect(text.split('\n')[0]).toBe('- pref-tabs: I prefer tabs');
    expect(text).not.toContain('server-port');
    expect(userProfileSubset([entry('server-port', '3000')])).toBe('');
  });
});
