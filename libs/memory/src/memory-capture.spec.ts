import { autoCapturePreference } from './memory-capture';

describe(autoCapturePreference.name, () => {
  it.each([
    ['I prefer tabs over spaces.', 'pref-tabs-over-spaces'],
    ['Fix the test. From now on use pnpm instead of npm.', 'pref-pnpm-npm'],
    ["Let's always use vitest for new tests", 'pref-vitest-new-tests'],
    ['Always use single quotes in TypeScript!', 'pref-single-quotes-type-script'],
    ['Please answer in German from now on', 'pref-answer-german'],
    ["let's use conventional commits from now on", 'pref-conventional-commits'],
    ['i really prefer short commit messages', 'pref-short-commit-messages'],
  ])('should capture the explicit preference in %j', (message, key) => {
    const found = autoCapturePreference(message);
    expect(found.map((f) => f.key)).toEqual([key]);
    expect(message).toContain(found[0].content.slice(0, 10));
  });

  it.each([
    'Do you prefer tabs or spaces?',
    'If I prefer tabs, what changes?',
    'He said I prefer tabs, but he was joking.',
    'Which one would I prefer here?',
    "Let's use a map here.",
    'Use pnpm to install it.',
    'The function prefers the cached value.',
    'Can you always use the cache?',
    '```\n// from now on use the new API\nconst a = 1;\n```',
    '> I prefer tabs over spaces',
    'Maybe from now on use yarn',
    'Fix the failing test in src/math.ts',
  ])('should not capture ordinary conversation: %j', (message) => {
    expect(autoCapturePreference(message)).toEqual([]);
  });

  it('should capture a repeat once and at most three per message', () => {
    expect(autoCapturePreference('I prefer tabs. I prefer tabs.')).toHaveLength(1);
    expect(autoCapturePreference('I prefer tabs. I prefer vim. I prefer dark themes. I prefer zsh.')).toHaveLength(3);
  });
});
