import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Json, validManifest } from '../manifest/fixtures';
import { runSvc, tempProject } from './runInProcess';

describe('svc validate', () => {
  test('exits 0 for a valid ./manifest.json by default', async () => {
    const dir = tempProject({ 'manifest.json': validManifest() });
    expect(await runSvc(['validate'], dir)).toEqual({ code: 0, stdout: 'manifest.json: valid\n', stderr: '' });
  });
  test('exits 1 with one line per issue: file, line and column, severity, path and message', async () => {
    const m: Json = validManifest();
    m.vendor.website = 'https://acme.example';
    m.actions[0].confirm = 'never';
    m.actions[0].annotations.destructive = true;
    const dir = tempProject({ 'manifest.json': m });
    const run = await runSvc(['validate'], dir);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^manifest\.json:\d+:\d+ {2}error: \$\.vendor\.website is not a manifest field; remove it \(allowed: id, name, contact, support_url\)$/,
      ),
      expect.stringMatching(
        /^manifest\.json:\d+:\d+ {2}warning: \$\.actions\[0\]\.confirm is "never" on a destructive action, so an agent may run it without asking anyone; use "if_destructive" or "always"$/,
      ),
      'manifest.json: invalid (1 error, 1 warning)',
      '',
    ]);
    // Each line and column is where its field's key starts in the file, as an editor counts them (1-based).
    const text = readFileSync(join(dir, 'manifest.json'), 'utf8').split('\n');
    const at = (line: string) => {
      const [, row, column] = /^manifest\.json:(\d+):(\d+)/.exec(line)!;
      return text[Number(row) - 1]!.slice(Number(column) - 1);
    };
    expect(at(lines[0]!)).toMatch(/^"website": "https:\/\/acme\.example"/);
    expect(at(lines[1]!)).toMatch(/^"confirm": "never"/);
  });
  test('a manifest nested 20,000 deep, or repeating a key, is refused as a host refuses it, not with a crash', async () => {
    const dir = tempProject({});
    const text = JSON.stringify(validManifest());
    writeFileSync(join(dir, 'manifest.json'), `${text.slice(0, -1)},"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`);
    const deep = await runSvc(['validate'], dir);
    expect(deep.code).toBe(1);
    expect(deep.stderr + deep.stdout).toContain('manifest.json is refused: ');
    expect(deep.stderr + deep.stdout).not.toContain('RangeError');
    writeFileSync(join(dir, 'manifest.json'), `{"id":"ffffffffffffffff",${text.slice(1)}`);
    const twice = await runSvc(['validate'], dir);
    expect(twice.code).toBe(1);
    expect(twice.stderr + twice.stdout).toMatch(/manifest\.json is refused: .*"id"/);
  });
  test('a manifest that is not UTF-8 is refused where the first byte is not, not repaired', async () => {
    const dir = tempProject({});
    const text = `${JSON.stringify(validManifest(), null, 2)}\n`.replace('"Pizza Orders"', '"Café Orders"');
    // The é saved as Latin-1 (one byte, 0xE9): the name would reach the store as "Caf\uFFFD Orders".
    writeFileSync(join(dir, 'manifest.json'), Buffer.from(text, 'latin1'));
    const latin1 = await runSvc(['validate'], dir);
    expect(latin1.code).toBe(1);
    expect(latin1.stderr + latin1.stdout).toContain(
      'manifest.json is not UTF-8: byte 0xE9 at line 4, column 15 is no UTF-8 character (a file saved as Latin-1 or Windows-1252?); save it as UTF-8',
    );
    writeFileSync(join(dir, 'manifest.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const utf16 = await runSvc(['validate'], dir);
    expect(utf16.code).toBe(1);
    expect(utf16.stderr + utf16.stdout).toContain('manifest.json is UTF-16 text; save it as UTF-8');
    // The same text as UTF-8, with or without the byte order mark, is valid.
    writeFileSync(join(dir, 'manifest.json'), `\ufeff${text}`);
    expect((await runSvc(['validate'], dir)).code).toBe(0);
  });
  test('warnings alone do not fail', async () => {
    const m: Json = validManifest();
    m.icons[1].sizes = '192x192';
    const run = await runSvc(['validate', 'manifest.json'], tempProject({ 'manifest.json': m }));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/manifest.json: valid \(1 warning\)\n$/);
  });
  test('validates several files and reports each', async () => {
    const bad: Json = validManifest();
    bad.name = '';
    const dir = tempProject({ 'a/manifest.json': validManifest(), 'b/manifest.json': bad });
    const run = await runSvc(['validate', 'a/manifest.json', 'b/manifest.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('a/manifest.json: valid');
    expect(run.stdout).toMatch(/^b\/manifest\.json:\d+:\d+ {2}error: \$\.name is empty/m);
  });
  test('--previous-version applies the monotonic rule', async () => {
    const dir = tempProject({ 'manifest.json': validManifest() });
    expect((await runSvc(['validate', '--previous-version', '1.2.2'], dir)).code).toBe(0);
    const run = await runSvc(['validate', '--previous-version', '1.10.0'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('$.version 1.2.3 is lower than the published version 1.10.0');
  });
  test('--json prints a machine-readable report', async () => {
    const m: Json = validManifest();
    m.age_rating = '18+';
    const run = await runSvc(['validate', '--json'], tempProject({ 'manifest.json': m }));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      files: [
        {
          file: 'manifest.json',
          ok: false,
          issues: [
            expect.objectContaining({
              path: '$.age_rating',
              severity: 'error',
              code: 'not_allowed',
              line: expect.any(Number),
              column: 3,
            }),
          ],
        },
      ],
    });
  });
  test('says of a folder what svc pack refuses in it: a name a package cannot hold, a link', async () => {
    const dir = tempProject({ 'app/manifest.json': validManifest(), 'app/café.js': '' });
    symlinkSync('/dev/zero', join(dir, 'app', 'zero.bin'));
    const run = await runSvc(['validate', 'app'], dir);
    expect(run.code).toBe(1);
    const app = realpathSync(join(dir, 'app'));
    expect(run.stdout).toContain(
      // About the folder, not a field: the file's start.
      `app/manifest.json:1:1  error: svc pack would refuse ${app}: café.js cannot be packed: it holds "é" (U+00E9)`,
    );
    expect(run.stdout).toContain(
      `app/manifest.json:1:1  error: svc pack would refuse ${app}: zero.bin is a symbolic link; a package holds files only`,
    );
  });

  test('exits 2 at once for a device or a pipe given as the manifest, and for a file of gigabytes', async () => {
    const dir = tempProject({ 'app/index.html': '' });
    // /dev/zero would be read without end, and a pipe nobody writes to waits for ever.
    execFileSync('mkfifo', [join(dir, 'app', 'manifest.json')]);
    for (const [args, shown] of [
      [['validate', '/dev/zero'], '/dev/zero'],
      [['validate', 'app/manifest.json'], 'app/manifest.json'],
      [['validate', 'app'], 'app/manifest.json'],
      [['check', 'app/manifest.json'], 'app/manifest.json'],
    ] as const) {
      const run = await runSvc([...args], dir);
      expect([run.code, run.stderr], args.join(' ')).toEqual([
        2,
        `svc ${args[0]}: ${shown} cannot be read (not a regular file); pass a file\n`,
      ]);
    }
    writeFileSync(join(dir, 'huge.json'), '');
    truncateSync(join(dir, 'huge.json'), 3 * 1024 ** 3);
    expect((await runSvc(['validate', 'huge.json'], dir)).stderr).toBe(
      'svc validate: huge.json is 3221225472 bytes, more than the 16777216 a JSON file read here may be; pass the manifest, a few KB\n',
    );
  });

  test('exits 2 for a missing file, 1 for broken JSON (with line and column) or an empty file', async () => {
    const dir = tempProject({
      'broken.json': '{\n  "name": "x",\n}\n',
      'array.json': '[1,]',
      'empty.json': '',
      'quoted.json': '{\n  "a": [1, \'two\']\n}',
    });
    const missing = await runSvc(['validate'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'svc validate: manifest.json does not exist; create one with `svc init`, or pass the path of your manifest\n',
    );
    const broken = await runSvc(['validate', 'broken.json'], dir);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /^svc validate: broken.json:3:1 is not valid JSON: .*\(JSON allows no trailing comma\)\n$/,
    );
    expect((await runSvc(['validate', 'array.json'], dir)).stderr).toMatch(/array.json:1:4 is not valid JSON/);
    // Valid JavaScript, not JSON: the position is that of the single-quoted string.
    expect((await runSvc(['validate', 'quoted.json'], dir)).stderr).toMatch(
      /quoted.json:2:12 is not valid JSON: Unexpected token '''\n$/,
    );
    const empty = await runSvc(['validate', 'empty.json'], dir);
    expect([empty.code, empty.stderr]).toEqual([1, expect.stringMatching(/empty.json is empty/)]);
  });
  test('broken JSON with --json is reported in the JSON', async () => {
    const run = await runSvc(['validate', '--json', 'x.json'], tempProject({ 'x.json': '{"a": }' }));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).files[0].error).toMatchObject({ code: 'bad_json', line: 1, column: 7 });
  });
  test('usage errors exit 2 with a pointer to help', async () => {
    const dir = tempProject({});
    const unknown = await runSvc(['validate', '--strict'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option --strict[\s\S]*Run `svc validate --help` for usage/);
    const version = await runSvc(['validate', '--previous-version', 'latest'], dir);
    expect(version.code).toBe(2);
    expect(version.stderr).toMatch(/--previous-version "latest" is not a version/);
  });
});
