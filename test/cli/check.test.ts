import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { type Json, validManifest } from '../manifest/fixtures';
import { runSvc, tempProject } from './runInProcess';

const withActions = (names: string[], auth: Json = { type: 'svc-exchange', audience: 'api' }): Json => {
  const m: Json = validManifest();
  const template = m.actions[0];
  m.actions = names.map((name) => ({ ...template, name }));
  m.auth = auth;
  return m;
};

describe('svc check', () => {
  test('passes when every declared action has a handler', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order', 'cancel_order']),
      'src/main.ts': "svc.actions.handle('create_order', async () => ({}));",
      'src/cancel.js': "const { actions } = window.svc;\nactions.handle('cancel_order', async () => ({}));",
    });
    const run = await runSvc(['check'], dir);
    expect(run).toEqual({ code: 0, stdout: 'svc check: ok (2 source files, 2 declared actions)\n', stderr: '' });
  });
  test('reports a declared action without a handler at its place in the manifest', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order', 'cancel_order']),
      'src/main.ts': "svc.actions.handle('create_order', h);",
    });
    const run = await runSvc(['check', '.'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^manifest.json:\d+:\d+ {2}error: action 'cancel_order' is declared but no code registers it; add svc.actions.handle\('cancel_order', async \(input, context\) => \{ \.\.\. \}\) to the mini app\n/,
    );
  });
  test('a handler registered through a hook (a computed name) turns a missing literal handler into a warning', async () => {
    // The React way: a hook ties the handler to a component's life, and handle() gets the hook's parameter.
    const dir = tempProject({
      'manifest.json': withActions(['add_note']),
      'src/hooks.ts':
        'export function useAction(name: string, run: () => Promise<unknown>) {\n  useEffect(() => svc.actions.handle(name, run), [name, run]);\n}',
      'src/App.tsx': "useAction('add_note', async () => ({}));",
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "warning: action 'add_note' is declared and no svc.actions.handle('add_note', ...) is written as such; the handler with a computed name at src/hooks.ts:2:19 may register it: make sure it does",
    );
    expect(run.stdout).toMatch(/src\/hooks.ts:2:\d+ {2}warning: svc.actions.handle\(\) gets a computed action name/);
  });
  test('reports a handler for an undeclared action at file:line:col, with a suggestion', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order']),
      'src/main.ts': "svc.actions.handle('create_order', h);\n  svc.actions.handle('createOrder', h);",
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "src/main.ts:2:3  error: svc.actions.handle('createOrder') registers an action that manifest.json does not declare (did you mean 'create_order'?)",
    );
  });
  test('reads the scripts of Vue and Svelte components and of HTML pages, and points into them', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order', 'cancel_order']),
      'index.html': '<!doctype html><div id="app"></div><script type="module" src="/src/main.ts"></script>',
      'src/main.ts': "import App from './App.vue';",
      'src/App.vue':
        '<template><p>{{ n }}</p></template>\n<script setup lang="ts">\nsvc.actions.handle(\'create_order\', async () => ({}));\n</script>',
      'src/Cancel.svelte':
        "<script>\n  svc.actions.handle('cancel_order', async () => ({}));\n  svc.actions.handle('cancelOrder', h);\n</script>",
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      "src/Cancel.svelte:3:3  error: svc.actions.handle('cancelOrder') registers an action that manifest.json does not declare (did you mean 'cancel_order'?); add it to \"actions\" in the manifest, or remove the handler\nsvc check: 1 error, 0 warnings (4 source files, 2 declared actions)\n",
    );
  });
  test('a computed action name is a warning, and a repeated handler too', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order']),
      'src/main.ts':
        "svc.actions.handle('create_order', h);\nsvc.actions.handle(name, h);\nsvc.actions.handle('create_order', h);",
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('src/main.ts:2:1  warning: svc.actions.handle() gets a computed action name');
    expect(run.stdout).toContain(
      "src/main.ts:3:1  warning: svc.actions.handle('create_order') registers the action again (first at src/main.ts:1:1)",
    );
  });
  test('auth none with a getToken() call fails', async () => {
    const ok = tempProject({ 'manifest.json': withActions([], { type: 'none' }), 'app.js': 'svc.auth.state();' });
    expect((await runSvc(['check'], ok)).code).toBe(0);
    const dir = tempProject({
      'manifest.json': withActions([], { type: 'none' }),
      'app.js': 'const t = await svc.auth.getToken();',
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'app.js:1:17  error: svc.auth.getToken() is called, but manifest.json declares "auth": {"type": "none"}',
    );
  });
  test('getToken() is fine with svc-exchange, signIn() warns outside external-oauth', async () => {
    const dir = tempProject({
      'manifest.json': withActions([]),
      'app.js': 'await svc.auth.getToken(); await svc.auth.signIn();',
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('warning: svc.auth.signIn() only works with "external-oauth" auth');
  });
  test('skips node_modules, dist, hidden directories, declaration and test files', async () => {
    const handler = "svc.actions.handle('create_order', h);";
    const dir = tempProject({
      'manifest.json': withActions(['create_order']),
      'node_modules/x/index.js': handler,
      'dist/app.js': handler,
      '.cache/app.js': handler,
      'src/app.test.ts': handler,
      'src/types.d.ts': handler,
      'src/readme.md': handler,
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/0 source files/);
  });
  test('a file nested too deep for the parser is said to be that, not a syntax error', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['add_note']),
      'src/main.ts': "svc.actions.handle('add_note', h);",
      'src/deep.js': `export const a = ${'['.repeat(20_000)}${']'.repeat(20_000)}; svc.ui.setTitle('x');`,
    });
    const run = await runSvc(['check'], dir);
    expect(run.stdout).toContain(
      'src/deep.js:1:1  warning: cannot parse this file: it nests too deep for the parser (thousands of levels), so it was not checked',
    );
  });
  test('manifest errors are reported with their line and column', async () => {
    const m: Json = withActions([]);
    m.name = '';
    const dir = tempProject({ 'manifest.json': m });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^manifest.json:4:3 {2}error: \$\.name is empty/);
  });
  test('--json prints the findings', async () => {
    const dir = tempProject({ 'manifest.json': withActions(['create_order']) });
    const run = await runSvc(['check', '--json'], dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      files: 0,
      actions: 1,
      findings: [{ file: 'manifest.json', severity: 'error', code: 'action_without_handler' }],
    });
  });
  test('works with no TypeScript installed: the built CLI runs with typescript unresolvable', () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order']),
      'src/main.tsx':
        "const el = <b>{x as number}</b>;\nsvc.actions.handle('create_order', async (i: { q: string }) => ({}));",
      'hooks.mjs':
        "export async function resolve(s, c, next) { if (s === 'typescript' || s.startsWith('typescript/')) throw new Error('typescript is not installed'); return next(s, c); }",
      'register.mjs': "import { register } from 'node:module'; register('./hooks.mjs', import.meta.url);",
    });
    const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', './register.mjs', cli, 'check', '.', '--exclude', '*.mjs'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('svc check: ok (1 source file, 1 declared action)\n');
    expect(run.status).toBe(0);
  });
  test('suggests the closest declared action for a mistyped handler name (edit distance)', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_poll', 'close_poll']),
      'src/main.ts':
        "svc.actions.handle('create_poll', h);\nsvc.actions.handle('close_poll', h);\nsvc.actions.handle('create_pol', h);",
    });
    const run = await runSvc(['check'], dir);
    expect(run.stdout).toContain(
      "src/main.ts:3:1  error: svc.actions.handle('create_pol') registers an action that manifest.json does not declare (did you mean 'create_poll'?)",
    );
  });
  test('flags svc.permissions.request of an undeclared scope, a manifest-style name, and an unknown one', async () => {
    const manifest = withActions([]);
    manifest.permissions = [{ scope: 'svc.room.context', purpose: 'Shows which room the poll is for.' }];
    const dir = tempProject({
      'manifest.json': manifest,
      'src/main.ts': [
        "await svc.permissions.request('room.context');",
        "await svc.permissions.request('notifications');",
        "await svc.permissions.request('svc.room.context');",
        "const { permissions } = svc; await permissions.request('room.contxt');",
        "await svc.permissions.request('identity.email');",
      ].join('\n'),
    });
    const run = await runSvc(['check', '--json'], dir);
    const findings = JSON.parse(run.stdout).findings.map((f: { line: number; code: string; message: string }) => [
      f.line,
      f.code,
      f.message,
    ]);
    expect(findings).toEqual([
      [
        2,
        'scope_not_declared',
        expect.stringContaining('add {"scope": "svc.notifications", "purpose": "..."} to "permissions"'),
      ],
      [3, 'scope_name_form', expect.stringContaining("did you mean 'room.context'?")],
      [4, 'scope_unknown', expect.stringContaining("did you mean 'room.context'?")],
      [5, 'scope_not_declarable', expect.stringContaining('no manifest can declare')],
    ]);
    expect(run.code).toBe(1);
  });
  test('skips build output and config files, and follows --include / --exclude', async () => {
    const files = {
      'manifest.json': withActions(['create_order']),
      'src/main.ts': "svc.actions.handle('create_order', h);",
      'src/admin/tools.ts': "svc.actions.handle('debug_tool', h);",
      'build/bundle.js': "svc.actions.handle('stale_copy', h);",
      'vite.config.ts': "svc.actions.handle('not_the_app', h);",
    };
    const all = await runSvc(['check'], tempProject(files));
    expect(all.stdout).toContain("'debug_tool'");
    expect(all.stdout).not.toContain('stale_copy');
    expect(all.stdout).not.toContain('not_the_app');
    const excluded = await runSvc(['check', '--exclude', 'src/admin/**'], tempProject(files));
    expect(excluded).toMatchObject({ code: 0, stdout: 'svc check: ok (1 source file, 1 declared action)\n' });
    const included = await runSvc(['check', '--include', 'src/main.ts'], tempProject(files));
    expect(included.code).toBe(0);
  });
  test("follows tsconfig.json's include and exclude when no --include is given", async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order']),
      'tsconfig.json': '{\n  // the app only\n  "include": ["src"],\n  "exclude": ["src/legacy"],\n}',
      'src/main.ts': "svc.actions.handle('create_order', h);",
      'src/legacy/old.ts': "svc.actions.handle('old_action', h);",
      'scripts/seed.ts': "svc.actions.handle('seed', h);",
    });
    expect(await runSvc(['check'], dir)).toMatchObject({
      code: 0,
      stdout: 'svc check: ok (1 source file, 1 declared action)\n',
    });
  });
  test('a file that does not parse is a warning naming it, not a crash', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order']),
      'src/main.ts': "svc.actions.handle('create_order', h);",
      'src/broken.ts': 'let = = ; svc.ui.toast({ message: "hi" });',
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/src\/broken.ts:1:1 {2}warning: cannot parse this file/);
  });
  test("a file that never names svc (a library's bundle) is not parsed: no call can be in it", async () => {
    // 4 MB of code in one line, as a bundler writes a vendor chunk; and one that does not parse, which is not said.
    const chunk = Array.from({ length: 60_000 }, (_, i) => `function f${i}(a,b){return a+b*${i}}`).join(';');
    const dir = tempProject({
      'manifest.json': withActions(['create_order']),
      'src/main.ts': "svc.actions.handle('create_order', h);",
      'assets/vendor.js': chunk.repeat(Math.ceil(4_000_000 / chunk.length)),
      // Names that hold the letters, not the name (a parser's tree of megabytes for nothing).
      'assets/other.js': 'let = = ; var msvc = "svcs"; xsvcx();',
    });
    const run = await runSvc(['check'], dir);
    expect([run.code, run.stdout]).toEqual([0, 'svc check: ok (3 source files, 1 declared action)\n']);
  });
  test('exits 2 when the manifest is missing or unreadable, 1 when it is not JSON', async () => {
    const missing = await runSvc(['check', 'nowhere'], tempProject({}));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nowhere\/manifest.json does not exist/);
    const broken = await runSvc(['check'], tempProject({ 'manifest.json': '{ "name": ' }));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/manifest.json:1:11 is not valid JSON/);
  });
});

describe('svc check and svc validate on the layout `svc init --template vite` writes', () => {
  // The manifest in public/ (Vite copies it into dist/), the code in src/: found from the project, from public/ and
  // from the manifest's own path, and the handler in src/ counts.
  // The starter with an action of the developer's own: declared in public/manifest.json, handled in src/main.ts.
  const viteApp = async () => {
    const parent = tempProject({});
    expect((await runSvc(['init', 'vite-app', '--template', 'vite'], parent)).code).toBe(0);
    const dir = `${parent}/vite-app`;
    const manifest = JSON.parse(readFileSync(`${dir}/public/manifest.json`, 'utf8'));
    manifest.actions = [{ ...validManifest().actions![0], name: 'say_hello', route: '/' }];
    writeFileSync(`${dir}/public/manifest.json`, JSON.stringify(manifest, null, 2));
    appendFileSync(`${dir}/src/main.ts`, "\nsvc.actions.handle('say_hello', async () => ({ said: true }));\n");
    return dir;
  };

  test.each([[[]], [['.']], [['public']], [['public/manifest.json']], [['public', '--include', '../src/**']]])(
    'svc check %j reads public/manifest.json and the code in src/',
    async (args) => {
      const dir = await viteApp();
      const run = await runSvc(['check', ...args], dir);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^svc check: (ok|0 errors)/m);
      expect(run.stdout).not.toContain('no code registers it');
      expect(run.stdout).toMatch(/\(([1-9]\d*) source files?, 1 declared action\)/);
      expect(run.code).toBe(0);
    },
  );

  test('a handler removed from src/ is reported from public/ too', async () => {
    const dir = await viteApp();
    const main = `${dir}/src/main.ts`;
    writeFileSync(main, readFileSync(main, 'utf8').replace(/svc\.actions\.handle\(/g, 'void ('));
    const run = await runSvc(['check', 'public'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^public\/manifest\.json:\d+:\d+ {2}error: action '\w+' is declared but no code registers it/m,
    );
  });

  test('a glob outside the project is a usage error that says how to write it', async () => {
    const dir = await viteApp();
    const run = await runSvc(['check', '--include', '../../elsewhere/**'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the glob "../../elsewhere/**" points outside the project folder');
  });

  test('a folder with no manifest names both places it looked', async () => {
    const dir = tempProject({ 'src/main.ts': '' });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'svc check: no manifest.json in . or public; create one with `svc init`, or pass the folder that holds it\n',
    );
  });

  test('svc validate with no file validates public/manifest.json', async () => {
    const dir = await viteApp();
    const run = await runSvc(['validate'], dir);
    expect(run.stdout).toContain('public/manifest.json');
    expect(run.code).toBe(0);
  });
});
