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
    const dir = tempProject({ 'manifest.json': withActions(['create_order', 'cancel_order']), 'src/main.ts': "svc.actions.handle('create_order', h);" });
    const run = await runSvc(['check', '.'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^manifest.json:\d+:\d+  error: action 'cancel_order' is declared but no code registers it; add svc.actions.handle\('cancel_order', async \(input, context\) => \{ \.\.\. \}\) to the mini app\n/);
  });
  test('reports a handler for an undeclared action at file:line:col, with a suggestion', async () => {
    const dir = tempProject({ 'manifest.json': withActions(['create_order']), 'src/main.ts': "svc.actions.handle('create_order', h);\n  svc.actions.handle('createOrder', h);" });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("src/main.ts:2:3  error: svc.actions.handle('createOrder') registers an action that manifest.json does not declare (did you mean 'create_order'?)");
  });
  test('a computed action name is a warning, and a repeated handler too', async () => {
    const dir = tempProject({
      'manifest.json': withActions(['create_order']),
      'src/main.ts': "svc.actions.handle('create_order', h);\nsvc.actions.handle(name, h);\nsvc.actions.handle('create_order', h);",
    });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('src/main.ts:2:1  warning: svc.actions.handle() gets a computed action name');
    expect(run.stdout).toContain("src/main.ts:3:1  warning: svc.actions.handle('create_order') registers the action again (first at src/main.ts:1:1)");
  });
  test('auth none with a getToken() call fails', async () => {
    const ok = tempProject({ 'manifest.json': withActions([], { type: 'none' }), 'app.js': 'svc.auth.state();' });
    expect((await runSvc(['check'], ok)).code).toBe(0);
    const dir = tempProject({ 'manifest.json': withActions([], { type: 'none' }), 'app.js': 'const t = await svc.auth.getToken();' });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('app.js:1:17  error: svc.auth.getToken() is called, but manifest.json declares "auth": {"type": "none"}');
  });
  test('getToken() is fine with svc-exchange, signIn() warns outside external-oauth', async () => {
    const dir = tempProject({ 'manifest.json': withActions([]), 'app.js': 'await svc.auth.getToken(); await svc.auth.signIn();' });
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
  test('manifest errors are reported with their line and column', async () => {
    const m: Json = withActions([]);
    m.name = '';
    const dir = tempProject({ 'manifest.json': m });
    const run = await runSvc(['check'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^manifest.json:5:3  error: \$\.name is empty/);
  });
  test('--json prints the findings', async () => {
    const dir = tempProject({ 'manifest.json': withActions(['create_order']) });
    const run = await runSvc(['check', '--json'], dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, files: 0, actions: 1, findings: [{ file: 'manifest.json', severity: 'error', code: 'action_without_handler' }] });
  });
  test('exits 2 with the install command when TypeScript is missing', async () => {
    const dir = tempProject({ 'manifest.json': withActions([]) });
    const run = await runSvc(['check'], dir, { loadTypeScript: () => Promise.reject(new Error('Cannot find package')) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/npm i -D typescript/);
  });
  test('exits 2 when the manifest is missing or broken', async () => {
    const missing = await runSvc(['check', 'nowhere'], tempProject({}));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nowhere\/manifest.json does not exist/);
    const broken = await runSvc(['check'], tempProject({ 'manifest.json': '{ "name": ' }));
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/manifest.json:1:11 is not valid JSON/);
  });
});
