import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { validateManifest } from '../../src/manifest';
import { runSvc, tempProject } from './runInProcess';

describe('svc help', () => {
  test('svc --help lists the commands and exits 0', async () => {
    const run = await runSvc(['--help'], tempProject({}));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/validate \[manifest.json \.\.\.\][\s\S]*check \[dir\][\s\S]*init \[dir\]/);
  });
  test.each(['validate', 'check', 'init'])('svc %s --help and svc help %s show the command help', async (command) => {
    const dir = tempProject({});
    const run = await runSvc([command, '--help'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: svc ${command}`));
    expect((await runSvc(['help', command], dir)).stdout).toBe(run.stdout);
  });
  test('no command prints usage to stderr and exits 2', async () => {
    const run = await runSvc([], tempProject({}));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Usage: svc <command>/);
  });
  test('an unknown command suggests the nearest one', async () => {
    const run = await runSvc(['chek'], tempProject({}));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command "chek"; did you mean `svc check`\?/);
  });
});

describe('svc init', () => {
  test('writes a valid starter manifest without $schema, and maps it to the schema in .vscode/settings.json', async () => {
    const dir = tempProject({});
    const run = await runSvc(['init'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^wrote manifest.json\nwrote .vscode\/settings.json/);
    const written = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(written.$schema).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8'))).toEqual({
      'json.schemas': [{ fileMatch: ['/manifest.json'], url: './node_modules/svc-sdk/schema/manifest.schema.json' }],
    });
    expect(validateManifest(written)).toMatchObject({ ok: true, warnings: [] });
    expect((await runSvc(['validate'], dir)).code).toBe(0);
  });
  test('merges the schema mapping into existing editor settings without losing any, once', async () => {
    const existing = { 'editor.tabSize': 2, 'json.schemas': [{ fileMatch: ['/x.json'], url: './x.schema.json' }] };
    const dir = tempProject({ '.vscode/settings.json': existing });
    expect((await runSvc(['init'], dir)).stdout).toContain('added the manifest schema to .vscode/settings.json');
    const merged = JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8'));
    expect(merged['editor.tabSize']).toBe(2);
    expect(merged['json.schemas']).toEqual([
      ...existing['json.schemas'],
      { fileMatch: ['/manifest.json'], url: './node_modules/svc-sdk/schema/manifest.schema.json' },
    ]);
    await runSvc(['init', '--force'], dir);
    expect(JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8'))['json.schemas']).toHaveLength(2);
  });
  test('leaves a settings file with comments alone and says what to add', async () => {
    const dir = tempProject({ '.vscode/settings.json': '{\n  // mine\n  "editor.tabSize": 4\n}\n' });
    const run = await runSvc(['init'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/left .vscode\/settings.json alone: .*comments.*add the mapping from the README/);
    expect(readFileSync(join(dir, '.vscode/settings.json'), 'utf8')).toContain('// mine');
  });
  test('writes into a new directory, with --name and --id', async () => {
    const dir = tempProject({});
    const run = await runSvc(['init', 'apps/pizza', '--name', 'Pizza', '--id', '0123456789abcdef'], dir);
    expect(run.code).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'apps/pizza/manifest.json'), 'utf8'));
    expect(written).toMatchObject({ name: 'Pizza', id: '0123456789abcdef' });
    expect(run.stdout).not.toContain('replace "id"');
  });
  test('refuses to overwrite unless --force', async () => {
    const dir = tempProject({ 'manifest.json': { keep: true } });
    const refused = await runSvc(['init'], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/manifest.json already exists; not overwriting it. Pass --force/);
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toEqual({ keep: true });
    expect((await runSvc(['init', '--force'], dir)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).manifest_version).toBe(1);
  });
  test('rejects an invalid --id or --name as a usage error', async () => {
    const dir = tempProject({});
    const run = await runSvc(['init', '--id', 'XYZ'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--id must be 16 lowercase hex characters/);
    expect((await runSvc(['init', '--name', ''], dir)).stderr).toMatch(/--name is empty/);
  });
});
