// What the messenger page shows of an app's long text: cut on a character a person sees as one, the rest counted in
// characters (code points).
import { expect, it } from 'vitest';
import { clipped } from '../../src/dev/messenger/clipped';

it('leaves a short text, and cuts a long one after max characters, counting the rest in characters', () => {
  expect(clipped('hello', 5)).toBe('hello');
  expect(clipped('abcdef', 4)).toBe('abcd… (2 more characters)');
  expect(clipped('abcde', 4)).toBe('abcd… (1 more character)');
  // 😀 is two UTF-16 units and one character: max counts it once, as the rest does.
  expect(clipped(`a${'😀'.repeat(10)}`, 4)).toBe(`a${'😀'.repeat(3)}… (7 more characters)`);
  expect(clipped('😀'.repeat(300), 200)).toBe(`${'😀'.repeat(200)}… (100 more characters)`);
  // Fewer characters than max, though more UTF-16 units: whole.
  expect(clipped('😀'.repeat(150), 200)).toBe('😀'.repeat(150));
});

it('never cuts through what shows as one character: an emoji sequence, a letter and its accent', () => {
  const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
  // E, then families of five code points each: a cut at 1,000 falls inside the 200th family, which goes whole.
  const shown = clipped(`E${family.repeat(300)}`, 1000);
  expect(shown).toBe(`E${family.repeat(199)}… (${1 + 300 * 5 - 1 - 199 * 5} more characters)`);
  expect(clipped(`${'e\u0301'.repeat(3)}`, 3)).toBe('e\u0301… (4 more characters)');
  // A flag is two regional indicators, paired from the start of their run: after an odd text, never half a flag.
  expect(clipped(`a${'🇫🇷'.repeat(600)}`, 1000)).toBe(`a${'🇫🇷'.repeat(499)}… (${1201 - 999} more characters)`);
});
