import { columns, sql, SQL_TYPES } from './sql';

describe('sql', () => {
  it('should bind every value as a numbered parameter, never as SQL text', () => {
    const name = "x'; DROP TABLE \"Run\"; --";
    const q = sql`SELECT 1 FROM "Run" WHERE "id" = ${'a'}::uuid AND "name" = ${name}`;
    expect(q.text).toBe('SELECT 1 FROM "Run" WHERE "id" = $1::uuid AND "name" = $2');
    expect(q.values).toEqual(['a', name]);
  });

  it('should inline a column list and keep numbering the values after it', () => {
    const q = sql`SELECT ${columns({ id: true, teamId: true }, 'r')} FROM "Run" r WHERE r."id" = ${'a'} AND r."teamId" = ${'b'}`;
    expect(q.text).toBe('SELECT r."id", r."teamId" FROM "Run" r WHERE r."id" = $1 AND r."teamId" = $2');
    expect(q.values).toEqual(['a', 'b']);
  });

  it('should send dates as UTC ISO strings and objects as JSON, and leave arrays to pg', () => {
    const at = new Date('2026-12-05T04:00:00.123Z');
    const q = sql`${at} ${{ a: 1 }} ${['x', 'y']} ${null}`;
    expect(q.values).toEqual(['2026-12-05T04:00:00.123Z', '{"a":1}', ['x', 'y'], null]);
  });

  it('should send bytes as bytes, a Uint8Array as well as a Buffer, never as JSON text', () => {
    const backing = new Uint8Array([9, 1, 2, 3, 9]);
    const q = sql`${Buffer.from([1, 2, 3])} ${backing.subarray(1, 4)}`;
    for (const v of q.values) {
      expect(Buffer.isBuffer(v)).toBe(true);
      expect([...(v as Buffer)]).toEqual([1, 2, 3]);
    }
  });

  it('should read timestamp columns as UTC and counts as numbers', () => {
    const parseTimestamp = SQL_TYPES.getTypeParser(1114, 'text') as (s: string) => Date;
    expect(parseTimestamp('2026-12-05 04:00:00.123').toISOString()).toBe('2026-12-05T04:00:00.123Z');
    const parseInt8 = SQL_TYPES.getTypeParser(20, 'text') as (s: string) => number;
    expect(parseInt8('42')).toBe(42);
  });
});
