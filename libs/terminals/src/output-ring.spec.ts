import { OutputRing } from './output-ring';

describe(OutputRing.name, () => {
  it('should keep the last chars and the total position when output arrives', () => {
    const r = new OutputRing(5);
    expect(r.append('abc', 3)).toBe('abc');
    expect(r.append('defg', 7)).toBe('defg');
    expect({ text: r.text, end: r.end, start: r.start }).toEqual({ text: 'cdefg', end: 7, start: 2 });
  });

  it('should drop a chunk the snapshot already held and keep only the new part of an overlapping one', () => {
    const r = new OutputRing(100);
    r.merge('hello', 5);
    expect(r.append('lo', 5)).toBe('');
    expect(r.append('lo world', 11)).toBe(' world');
    expect(r.text).toBe('hello world');
  });

  it('should put a snapshot in front of live chunks that were processed before it', () => {
    const r = new OutputRing(100);
    r.append(' world', 11);
    r.merge('hello', 5);
    expect({ text: r.text, end: r.end }).toEqual({ text: 'hello world', end: 11 });
  });

  it('should take a newer snapshot whole', () => {
    const r = new OutputRing(100);
    r.append('ab', 2);
    r.merge('abcd', 4);
    expect({ text: r.text, end: r.end }).toEqual({ text: 'abcd', end: 4 });
  });

  it('should answer what came after a position, or null when that is no longer held', () => {
    const r = new OutputRing(4);
    r.append('abcdef', 6);
    expect(r.since(6)).toBe('');
    expect(r.since(4)).toBe('ef');
    expect(r.since(1)).toBeNull();
    expect(r.since(9)).toBeNull();
  });

  it('should count positions itself when the sandbox sends none', () => {
    const r = new OutputRing(100);
    r.append('ab');
    r.append('c');
    expect({ text: r.text, end: r.end }).toEqual({ text: 'abc', end: 3 });
  });
});
