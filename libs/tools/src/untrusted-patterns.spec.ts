// Issue 8.3: patterns and text from the model or a sandbox must not freeze the process. Each test
// would hang (minutes to centuries) on the JS RegExp code these paths used before.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_MATCH_LINE_CHARS } from '@h/patterns';
import { countErrors } from './build-check';
import { longRunningReason } from './command-policy';
import { distillOutput, stripAnsi } from './distill';
import { matchesGlob } from '@h/workspace-fs';
import { validateSummary } from './summary-validator';
import { createToolKit, type ToolKit } from './testing/tool-test-kit';

/** ~1 MB: 16,000 lines of 60 "a" and a "!" — the classic input for `(a+)+$`. */
const MEGABYTE = Array.from({ length: 16_000 }, () => `${'a'.repeat(60)}!`).join('\n');
/**
 * 2,000 such lines (~120 KB): one line already takes a backtracking engine centuries, and this size
 * stays well inside read_command_output's 500 ms match budget (MATCH_BUDGET_MS) on a loaded machine,
 * so the test sees the whole answer rather than the budget's stop (which a megabyte hit at load 10+).
 */
const CATASTROPHIC_LOG = Array.from({ length: 2_000 }, () => `${'a'.repeat(60)}!`).join('\n');

describe('untrusted patterns and text', () => {
  let kit: ToolKit;
  beforeEach(() => (kit = createToolKit()));
  afterEach(() => kit.cleanup());

  describe('read_command_output', () => {
    it('should filter a log with a catastrophic pattern and answer with the count', async () => {
      await kit.ctx.outputs.add({ label: 'make', text: `${CATASTROPHIC_LOG}\nthe end aaaa` });
      const res = await kit.call('read_command_output', { cmd_id: 1, filter: '(a+)+$' });
      expect(res.isError).toBeFalsy();
      expect(res.text).toBe('[cmd #1] make: 1 of 2001 lines match /(a+)+$/, showing 1-1\n2001\tthe end aaaa');
      const other = await kit.call('read_command_output', { cmd_id: 1, filter: '(x+x+)+y' });
      expect(other.text).toContain('0 of 2001 lines match /(x+x+)+y/');
    });

    it('should stop at its time budget with a partial answer when even RE2 is slow', async () => {
      // Among the costliest patterns the caps allow, on lines as long as the cap: ~50 ms a line.
      let seed = 7;
      const bit = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 16) & 1;
      const lines = Array.from({ length: 2000 }, () => Array.from({ length: 1000 }, () => 'ab'[bit()]).join('')).join('\n');
      await kit.ctx.outputs.add({ label: 'slow', text: lines });
      const res = await kit.call('read_command_output', { cmd_id: 1, filter: '(?:[ab]*a[ab]{30}){10}[^ab]' });
      expect(res.isError).toBeFalsy();
      expect(res.text).toMatch(/^\[cmd #1\] slow: 0 matches of \/.*\/ in lines 1-\d+ of 2000 \(search stopped at its time budget; narrow the pattern\)/);
      expect(res.data).toMatchObject({ partial: true });
    });

    it('should refuse lookaround and backreferences, saying what to use instead', async () => {
      await kit.ctx.outputs.add({ label: 'x', text: 'a\nb' });
      const look = await kit.call('read_command_output', { cmd_id: 1, filter: 'error(?!s)' });
      expect(look).toMatchObject({ isError: true });
      expect(look.text).toContain('invalid filter: the pattern uses negative lookahead (?!…), which is not supported');
      expect(look.text).toContain('filter twice');
      const back = await kit.call('read_command_output', { cmd_id: 1, filter: '(\\w)\\1' });
      expect(back.text).toContain('a backreference (\\1)');
    });
  });

  describe('grep (LocalWorkspace, on the host)', () => {
    it('should search a megabyte file with a catastrophic pattern', async () => {
      writeFileSync(join(kit.dir, 'big.txt'), `${MEGABYTE}\nxxxxy here\n`);
      const res = await kit.call('grep', { pattern: '(x+x+)+y' });
      expect(res.text).toBe('big.txt:16001: xxxxy here');
      expect((await kit.call('grep', { pattern: '(a+)+$' })).text).toBe('No matches');
    });

    it('should refuse lookahead with a message naming it', async () => {
      const res = await kit.call('grep', { pattern: 'foo(?=bar)' });
      expect(res).toMatchObject({ isError: true, text: expect.stringContaining('invalid regex: the pattern uses lookahead (?=…)') });
    });

    it('should match globs from the model in linear time', async () => {
      writeFileSync(join(kit.dir, `${'a'.repeat(200)}.txt`), 'x');
      const glob = `${'*a'.repeat(30)}*b`;
      expect(matchesGlob('a'.repeat(250), glob)).toBe(false);
      expect((await kit.call('search_files', { pattern: glob })).text).toBe(`No files match "${glob}"`);
      expect((await kit.call('grep', { pattern: 'x', include: glob })).text).toBe('No matches');
      // A long substring is a substring, not a pattern; a glob too large to compile is refused.
      expect((await kit.call('search_files', { pattern: 'a'.repeat(5000) })).text).toBe(`No files match "${'a'.repeat(5000)}"`);
      const huge = await kit.call('search_files', { pattern: `${'?'.repeat(1500)}*` });
      expect(huge).toMatchObject({ isError: true, text: expect.stringContaining('invalid glob: the pattern is too complex') });
    });
  });

  describe('our own patterns over the sandbox output', () => {
    it('should distill a megabyte line without a colon, a run of newlines and unterminated OSC escapes', () => {
      const long = `error: ${'a'.repeat(1_000_000)}`;
      expect(distillOutput(`${long}\nok\n`).text).toContain('error: aaa');
      expect(distillOutput(`start\n${'\n'.repeat(1_000_000)}x${'\n'.repeat(1_000_000)}`).totalLines).toBe(1_000_002);
      expect(stripAnsi(`${'\x1b]'.repeat(200_000)}ok\x1b]0;title\x07`)).toBe(`${'\x1b]'.repeat(200_000)}ok`);
      expect(stripAnsi('\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\ \x1b[31mred\x1b[0m')).toBe('link red');
    });

    it('should only match the first MAX_MATCH_LINE_CHARS characters of a line', () => {
      const late = `${'.'.repeat(MAX_MATCH_LINE_CHARS)} error here`;
      expect(distillOutput(`${late}\n${'ok\n'.repeat(100)}`).text).not.toContain('error here');
    });

    it('should count build errors and check commands and summaries of a megabyte quickly', () => {
      expect(countErrors(`${'a'.repeat(1_000_000)}\nsrc/x.ts:1:2: error TS1`, 1).errors).toBe(1);
      expect(longRunningReason(`jest ${'a '.repeat(500_000)}`)).toBeNull();
      expect(longRunningReason(`journalctl ${' '.repeat(500_000)}x`)).toBeNull();
      expect(longRunningReason('npm run dev')).not.toBeNull();
      const summary = `### Changes Made\n- ${'a'.repeat(500_000)}\n### Verification\n- ${'-'.repeat(500_000)}\n### Outcome\n-${' '.repeat(500_000)}x`;
      expect(validateSummary(summary, [])).toEqual(expect.arrayContaining([expect.stringContaining('names no file')]));
    });
  });
});
