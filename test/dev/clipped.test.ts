// What the messenger page shows of an app's long text: cut on a character, the rest counted in characters.
import { expect, it } from 'vitest';
import { clipped } from '../../src/dev/messenger/clipped';

it('leaves a short text, and cuts a long one on a whole character, counting the rest in characters', () => {
  expect(clipped('hello', 5)).toBe('hello');
  expect(clipped('abcdef', 4)).toBe('abcd… (2 more characters)');
  // 😀 is two UTF-16 units: a cut inside it keeps none of it, and the rest counts each emoji once.
  expect(clipped(`a${'😀'.repeat(10)}`, 4)).toBe(`a😀… (9 more characters)`);
  expect(clipped('😀'.repeat(150), 200)).toBe(`${'😀'.repeat(100)}… (50 more characters)`);
});
