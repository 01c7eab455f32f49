import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, test } from 'vitest';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { validateManifest } from '../../src/manifest';
import { COMMANDS } from '../../src/cli/runCli';
import { runSvc, tempProject } from './runInProcess';

describe('svc help', () => {
  test('svc --help lists the commands and exits 0', async () => {
    const run = await runSvc(['--help'], tempProject({}));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /validate \[manifest.json \.\.\.\][\s\S]*check \[dir \| manifest.json\][\s\S]*init \[dir\]/,
    );
  });
  test.each(['validate', 'check', 'init'])('svc %s --help and svc help %s show the command help', async (command) => {
    const dir = tempProject({});
    const run = await runSvc([command, '--help'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: svc ${command}`));
    expect((await runSvc(['help', command], dir)).stdout).toBe(run.stdout);
  });
  test.each(COMMANDS.map((c) => c.name))('svc %s --help starts with one usage line, single-spaced', async (command) => {
    const run = await runSvc([command, '--help'], tempProject({}));
    expect(run.code).toBe(0);
    const first = run.stdout.split('\n')[0]!;
    expect(first).toMatch(new RegExp(`^Usage: svc ${command}( |$)`));
    expect(first).not.toMatch(/ {2}/);
    expect(first).toMatch(/ \[options\]$/);
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
    // A swap of two letters at the start is as near as a letter missing at the end.
    expect((await runSvc(['tirgger'], tempProject({}))).stderr).toContain('did you mean `svc trigger`?');
  });
});

describe('svc init', () => {
  // Keys go to a folder of the test's own, never the real home.
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'svc-home-'));
    process.env.SVC_STATE_DIR = home;
  });

  test('writes a valid starter manifest without $schema, and maps it to the schema in .vscode/settings.json', async () => {
    const dir = tempProject({});
    const run = await runSvc(['init'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^made this app's key: .*\nwrote manifest.json\nwrote .vscode\/settings.json/);
    // The editor set-up is in docs/manifest.md (the README has no such section).
    expect(run.stdout).toContain(`(other editors: see "Editor setup" in svc-sdk's docs/manifest.md)\n`);
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
    expect(run.stdout).toMatch(
      /left .vscode\/settings.json alone: .*comments.*; add the mapping by hand \(see "Editor setup" in svc-sdk's docs\/manifest.md\)\n/,
    );
    expect(readFileSync(join(dir, '.vscode/settings.json'), 'utf8')).toContain('// mine');
  });
  test('without --key makes the app a key (mode 600, outside the project) and writes the id openssl derives from it', async () => {
    const dir = tempProject({});
    const run = await runSvc(['init', 'apps/pizza', '--name', 'Pizza'], dir);
    expect(run.code).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'apps/pizza/manifest.json'), 'utf8'));
    const keyFile = join(home, 'keys', `${written.id}.pem`);
    expect(run.stdout).toContain(`made this app's key: ${keyFile} (mode 600), id ${written.id}`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const der = execFileSync('openssl', ['pkey', '-in', keyFile, '-pubout', '-outform', 'DER']);
    const hash = execFileSync('sha256sum', { input: der, encoding: 'utf8' }).slice(0, 16);
    expect(written).toMatchObject({ name: 'Pizza', id: hash });
    // --force keeps the app's key: the id does not change.
    const again = await runSvc(['init', 'apps/pizza', '--force'], dir);
    expect(again.stdout).toContain(`id ${written.id}, from ${keyFile}`);
    expect(JSON.parse(readFileSync(join(dir, 'apps/pizza/manifest.json'), 'utf8')).id).toBe(written.id);
  });
  test("in a project's public/, maps the manifest at the project's root, where VS Code reads it (not in public/)", async () => {
    const dir = tempProject({ 'package.json': { name: 'standup', private: true } });
    const run = await runSvc(['init', 'public', '--name', 'Standup Notes'], dir);
    expect(run.code).toBe(0);
    // The advice runs in the app's folder (recheck47 F6).
    expect(run.stdout).toContain('Next:\n  cd public\n');
    expect(existsSync(join(dir, 'public', '.vscode'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8'))).toEqual({
      'json.schemas': [
        { fileMatch: ['/public/manifest.json'], url: './node_modules/svc-sdk/schema/manifest.schema.json' },
      ],
    });
    expect(run.stdout).toContain('wrote .vscode/settings.json (VS Code validates and completes public/manifest.json)');
    // --name was given: not asked for again.
    expect(run.stdout).toContain('  - fill in "description" and "vendor", then run `svc validate`');
    // The icons the folder lacks are written, PNGs of their declared sizes (svc pack refuses a package without them);
    // the page the manifest names is the app's own, and how to make it is said (svc dev's frame would show a 404).
    expect(run.stdout).toContain(
      '  - replace the placeholder icons icons/icon-192.png, icons/icon-512.png with your own',
    );
    for (const size of [192, 512]) {
      const png = readFileSync(join(dir, `public/icons/icon-${size}.png`));
      expect([png.subarray(1, 4).toString(), png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual(['PNG', size, size]);
    }
    expect(run.stdout).toContain(
      '  - add index.html (the manifest names it): the entry page loads svc, with a <script src="svc.global.js"> copied from node_modules/svc-sdk/dist/',
    );
    expect(run.stdout).toContain('`svc init <dir> --template vite`');
    expect(run.stdout).toContain('install svc-sdk in this project');
    // A second app in the same project joins the one mapping.
    const second = await runSvc(['init', 'admin', '--name', 'Admin'], dir);
    expect(second.stdout).toContain(
      'added the manifest schema to .vscode/settings.json (VS Code validates and completes admin/manifest.json)',
    );
    expect(JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8'))['json.schemas']).toEqual([
      {
        fileMatch: ['/public/manifest.json', '/admin/manifest.json'],
        url: './node_modules/svc-sdk/schema/manifest.schema.json',
      },
    ]);
  });
  test("VS Code's own JSON service applies the mapping to a manifest under [ ] { } # ? and to no other file (paths46 F5)", async () => {
    const dir = tempProject({ 'package.json': { name: 'odd', private: true } });
    const folder = 'apps/[beta] {a,b} #1 q?*';
    const run = await runSvc(['init', folder, '--name', 'Odd'], dir);
    expect(run.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8'));
    // What VS Code does with the setting: the workspace's json.schemas given to its JSON language service.
    const service = getLanguageService({
      schemaRequestService: async (uri) => readFileSync(fileURLToPath(uri), 'utf8'),
      workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).href },
    });
    const schemaFile = pathToFileURL(join(process.cwd(), 'schema/manifest.schema.json')).href;
    service.configure({
      validate: true,
      schemas: settings['json.schemas'].map((s: { fileMatch: string[] }) => ({
        uri: schemaFile,
        fileMatch: s.fileMatch,
        folderUri: pathToFileURL(dir).href,
      })),
    });
    const problemsOf = async (file: string) => {
      // A manifest with a field the schema does not allow: VS Code marks it where the schema applies.
      const text = JSON.stringify({
        ...JSON.parse(readFileSync(join(dir, folder, 'manifest.json'), 'utf8')),
        colour: 1,
      });
      const document = TextDocument.create(pathToFileURL(file).href, 'json', 1, text);
      return (await service.doValidation(document, service.parseJSONDocument(document))).map((d) => d.message);
    };
    expect(await problemsOf(join(dir, folder, 'manifest.json'))).toEqual([expect.stringContaining('colour')]);
    expect(await problemsOf(join(dir, 'apps/other/manifest.json'))).toEqual([]);
  });
  test('the Vite starter in a folder whose path Vite cannot serve is warned of, and its cd runs as printed (paths46 F6, F7)', async () => {
    const dir = tempProject({});
    const run = await runSvc(['init', "my app #1 'q'", '--template', 'vite'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `svc init: warning: the path ${join(dir, "my app #1 'q'")} holds "#", which Vite and Vitest read as part of a URL`,
    );
    expect(run.stdout).toContain("  cd 'my app #1 '\\''q'\\'''\n");
    // As a shell reads it back: the folder's own name.
    const cd = /^ {2}cd (.*)$/m.exec(run.stdout)![1]!;
    expect(execFileSync('sh', ['-c', `printf %s ${cd}`]).toString()).toBe("my app #1 'q'");
    const plain = await runSvc(['init', 'plain', '--template', 'vite'], dir);
    expect(plain.stderr).not.toContain('Vite and Vitest read');
    expect(plain.stdout).toContain('  cd plain\n');
    // A folder named like an option: cd would read -dash as one (recheck47 F1).
    const dash = await runSvc(['init', './-dash', '--template', 'vite'], dir);
    expect(dash.stdout).toContain('  cd ./-dash\n');
    execFileSync('sh', ['-c', 'cd ./-dash'], { cwd: dir });
  });
  test('refuses a folder that is a file, or under one, before it makes a key (exit 2)', async () => {
    const dir = tempProject({ 'notes.txt': 'x' });
    for (const [args, message] of [
      [['init', 'notes.txt'], 'svc init: notes.txt is a file, not a folder; choose another folder.\n'],
      [
        ['init', 'notes.txt/app'],
        'svc init: notes.txt/app cannot be made: a folder on its path is a file; choose another folder.\n',
      ],
      [
        ['init', 'notes.txt', '--template', 'vite'],
        'svc init: notes.txt is a file, not a folder; choose another folder.\n',
      ],
      [['init', '/dev/zero'], 'svc init: /dev/zero is a file, not a folder; choose another folder.\n'],
    ] as const) {
      const run = await runSvc([...args], dir);
      expect([run.code, run.stderr, run.stdout], args.join(' ')).toEqual([2, message, '']);
    }
    // A pipe in the manifest's place would wait for a reader for ever, even with --force.
    mkdirSync(join(dir, 'piped'));
    execFileSync('mkfifo', [join(dir, 'piped', 'manifest.json')]);
    const piped = await runSvc(['init', 'piped', '--force'], dir);
    expect([piped.code, piped.stderr]).toEqual([
      2,
      'svc init: piped/manifest.json is not a file (a folder, a pipe or a device): remove it, or choose another directory.\n',
    ]);
    // No key was made for an app that could not be written.
    expect(existsSync(join(home, 'keys'))).toBe(false);
  });
  test("with --key writes that key's id, and refuses a public key or a file that is no key, writing nothing", async () => {
    const dir = tempProject({});
    expect((await runSvc(['keygen', '--out', 'k.pem'], dir)).code).toBe(0);
    const id = execFileSync('sh', ['-c', 'openssl pkey -in k.pem -pubout -outform DER | sha256sum | cut -c1-16'], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
    const run = await runSvc(['init', 'a', '--key', 'k.pem'], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'a/manifest.json'), 'utf8')).id).toBe(id);
    execFileSync('sh', ['-c', 'openssl pkey -in k.pem -pubout -out pub.pem; echo hello > not-a-key.pem'], { cwd: dir });
    const pub = await runSvc(['init', 'b', '--key', 'pub.pem'], dir);
    // Read and found no private key: 1, as svc pack says; a key file that is not there: 2.
    expect(pub.code).toBe(1);
    expect(pub.stderr).toContain('--key pub.pem is a public key; signing needs the private key');
    expect((await runSvc(['init', 'b', '--key', 'missing.pem'], dir)).code).toBe(2);
    const junk = await runSvc(['init', 'b', '--key', 'not-a-key.pem'], dir);
    expect(junk.stderr).toContain('--key not-a-key.pem is not a private key in PEM');
    expect(() => statSync(join(dir, 'b'))).toThrow();
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
  test('rejects an invalid --name, and --id (ids are derived from keys), as usage errors', async () => {
    const dir = tempProject({});
    const run = await runSvc(['init', '--id', '0123456789abcdef'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown option --id /);
    expect((await runSvc(['init', '--name', ''], dir)).stderr).toMatch(/--name is empty/);
  });
});
