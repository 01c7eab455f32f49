import { describe, expect, test } from 'vitest';
import { findBridgeCalls } from '../../src/cli/findBridgeCalls';

const handled = (code: string, file = 'app.ts'): (string | undefined)[] =>
  findBridgeCalls(file, code)
    .filter((c) => c.kind === 'handle')
    .map((c) => c.name);

describe('findBridgeCalls', () => {
  test("reads a page's script whose tag runs to millions of characters", () => {
    const page = `<script data-x=${'a'.repeat(8 << 20)}>svc.actions.handle('big', h);</script>`;
    expect(handled(page, 'index.html')).toEqual(['big']);
  });
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
  test("reads a Vue component's scripts, TypeScript and a generic with a '>' included, at their lines in the file", () => {
    const vue = [
      '<template><button @click="save">Save</button></template>',
      '<script lang="ts">',
      "import { svc as bridge } from 'svc-sdk';",
      'export const { actions } = bridge;',
      '</script>',
      '<script setup lang="ts" generic="T extends Record<string, unknown>">',
      "const input = <T>{} as T; actions.handle('create_poll', async () => input);",
      "  svc.permissions.request('room.context');",
      '</script>',
    ].join('\n');
    expect(findBridgeCalls('Poll.vue', vue)).toEqual([
      { kind: 'handle', name: 'create_poll', line: 7, column: 27 },
      { kind: 'request', name: 'room.context', line: 8, column: 3 },
    ]);
    // A call on the line of the opening tag is placed after the tag.
    expect(findBridgeCalls('One.vue', "<script setup>svc.actions.handle('a', h)</script>")).toEqual([
      { kind: 'handle', name: 'a', line: 1, column: 15 },
    ]);
  });
  test("reads a Svelte component's module and instance scripts as one, and an HTML page's inline scripts", () => {
    const svelte = [
      '<script context="module" lang="ts">',
      '  export const { handle } = svc.actions;',
      '</script>',
      '<script lang="ts">',
      "  handle('vote', async () => ({}));",
      '</script>',
      '<button on:click={() => vote()}>Vote</button>',
    ].join('\n');
    expect(handled(svelte, 'Poll.svelte')).toEqual(['vote']);
    const html = [
      '<!doctype html><script type="importmap">{"imports":{"svc-sdk":"/svc.js"}}</script>',
      '<script type="application/json" id="data">{"a": 1}</script>',
      '<script defer src="svc.global.js"></script>',
      "<script>svc.actions.handle('classic', h);</script>",
      "<script type=module>svc.actions.handle('module', h);</script>",
      '<script type="text/x-template">svc.actions.handle(\'template\', h);</script>',
    ].join('\n');
    expect(handled(html, 'index.html')).toEqual(['classic', 'module']);
  });
  test('finds getToken and signIn on svc.auth', () => {
    const calls = findBridgeCalls(
      'a.ts',
      'await svc.auth.getToken(); await window.svc.auth.signIn(); svc.auth.state();',
    );
    expect(calls.map((c) => c.kind)).toEqual(['getToken', 'signIn']);
  });
});
