import { describe, expect, test } from 'vitest';
import { findBridgeCalls } from '../../src/cli/findBridgeCalls';

const handled = (code: string, file = 'app.ts'): (string | undefined)[] =>
  findBridgeCalls(file, code)
    .filter((c) => c.kind === 'handle')
    .map((c) => c.name);

describe('findBridgeCalls', () => {
  test('finds svc.actions.handle with its position', () => {
    expect(findBridgeCalls('a.js', "\n  svc.actions.handle('a', async () => {});")).toEqual([
      { kind: 'handle', name: 'a', line: 2, column: 3 },
    ]);
  });
  test('recognises globalThis.svc, window.svc, self.svc, optional chaining and element access', () => {
    const code = `
      globalThis.svc.actions.handle('g', h);
      window.svc.actions.handle("w", h);
      self.svc?.actions?.handle(\`s\`, h);
      svc['actions']['handle']('e', h);
      (svc as any).actions!.handle('c', h);`;
    expect(handled(code)).toEqual(['g', 'w', 's', 'e', 'c']);
  });
  test('follows destructuring, renaming, aliases and imports from svc-sdk', () => {
    const code = `
      import { svc as bridge } from 'svc-sdk';
      const { actions } = bridge;
      const { actions: acts, auth } = window.svc;
      const s = globalThis.svc;
      const a2 = s.actions;
      const { handle } = s.actions;
      actions.handle('one', h);
      acts.handle('two', h);
      a2.handle('three', h);
      handle('four', h);
      auth.getToken();`;
    expect(findBridgeCalls('app.ts', code).map((c) => `${c.kind}:${c.name ?? ''}`)).toEqual([
      'handle:one',
      'handle:two',
      'handle:three',
      'handle:four',
      'getToken:',
    ]);
  });
  test('aliases declared in any order are followed', () => {
    expect(handled('function f() { a.handle("late", h); } const s = svc; const { actions: a } = s;')).toEqual(['late']);
  });
  test('ignores comments, strings, look-alikes and other objects', () => {
    const code = `
      // svc.actions.handle('comment', h)
      const text = "svc.actions.handle('string', h)";
      other.actions.handle('other', h);
      svc.action.handle('typo', h);
      window.other.actions.handle('x', h);
      svc.actions.register('y', h);`;
    expect(handled(code)).toEqual([]);
  });
  test('a computed name is found without a name', () => {
    const calls = findBridgeCalls(
      'a.ts',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under test contains a template literal
      'for (const n of names) svc.actions.handle(n, h); svc.actions.handle(`a${1}`, h);',
    );
    expect(calls.map((c) => c.name)).toEqual([undefined, undefined]);
  });
  test('parses TSX, JSX, MJS and CJS', () => {
    expect(handled("const x = <div onClick={() => svc.actions.handle('tsx', h)} />;", 'a.tsx')).toEqual(['tsx']);
    expect(handled("const x = <b>{svc.actions.handle('jsx', h)}</b>;", 'a.jsx')).toEqual(['jsx']);
    expect(handled("svc.actions.handle('m', h); export {}", 'a.mjs')).toEqual(['m']);
    expect(handled("module.exports = () => svc.actions.handle('c', h);", 'a.cjs')).toEqual(['c']);
  });
  test('finds getToken and signIn on svc.auth', () => {
    const calls = findBridgeCalls(
      'a.ts',
      'await svc.auth.getToken(); await window.svc.auth.signIn(); svc.auth.state();',
    );
    expect(calls.map((c) => c.kind)).toEqual(['getToken', 'signIn']);
  });
});
