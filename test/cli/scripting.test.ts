// The CLI as a CI step or a shell script uses it, through the built bin: an unset variable, `-` as a file name, a
// folder that cannot be written, a full disk, a silent or interactive standard input, a report a pipeline parses,
// and a taken port, each refused with its own sentence and exit code, leaving no temporary file behind.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/spawnProgram';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
let home: string;
let work: string;

const svc = (args: string[], options: { cwd?: string; input?: string; stdout?: 'pipe' | number } = {}) => {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? work,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, SVC_STATE_DIR: home, NO_COLOR: '1' },
    stdio: ['pipe', options.stdout ?? 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout ?? '', stderr: run.stderr };
};

/** Files whose names end in `.tmp` anywhere under `dir`: what an interrupted or failed write leaves. */
const temporaries = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'));

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-scripting-home-'));
  work = mkdtempSync(join(tmpdir(), 'svc-scripting-'));
  expect(svc(['init', 'app']).code).toBe(0);
  writeFileSync(join(work, 'app/index.html'), '<!doctype html><title>x</title>');
  // init wrote placeholder icons; the app's own replace them.
  writeFileSync(join(work, 'app/icons/icon-192.png'), PNG);
  writeFileSync(join(work, 'app/icons/icon-512.png'), PNG);
});

describe('arguments a script gets wrong', () => {
  it('refuses an empty argument or option (an unset variable) instead of taking it as "."', () => {
    const folder = svc(['pack', '']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('an argument is empty (a variable that is not set?)');
    expect(svc(['init', ' ']).stderr).toContain('an argument is empty (a variable that is not set?)');
    const out = svc(['types', 'app', '--out', '']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--out is empty');
    // `--out ""` was taken as the folder itself, whose temporary file went beside it, in its parent.
    expect(readdirSync(dirname(work)).filter((n) => n.startsWith(`${basename(work)}.`))).toEqual([]);
  });

  it('refuses --out - rather than write a file named "-" (a private key among them)', () => {
    for (const command of [['keygen'], ['pack', 'app'], ['types', 'app']]) {
      const run = svc([...command, '--out', '-']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--out - would write a file named "-"');
    }
    expect(existsSync(join(work, '-'))).toBe(false);
  });

  it('names a single-dash word whole, and says how to write a value that starts with a dash', () => {
    expect(svc(['check', '-app']).stderr).toContain(
      'unknown option -app: a long option starts with two dashes (--app)',
    );
    expect(svc(['check', '--bogus']).stderr).toMatch(/unknown option --bogus \(.*-- --bogus\)/);
    expect(svc(['dev', '--prot', '3000']).stderr).toContain('unknown option --prot; did you mean --port?');
    expect(svc(['pack', '--outt', 'x.swbn']).stderr).toContain('unknown option --outt; did you mean --out?');
    expect(svc(['trigger', '--tto', 'x']).stderr).toContain('unknown option --tto; did you mean --to?');
    expect(svc(['dev', '--port', '-1']).stderr).toContain(
      '--port -1: a value that starts with a dash is written --port=-1',
    );
  });

  it('prints its version', () => {
    const run = svc(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('outputs that cannot be written', () => {
  it('svc pack makes a missing --out folder, and refuses one it cannot make with exit 2 and no temporary file', () => {
    const made = svc(['pack', 'app', '--out', 'new/sub/app.swbn']);
    expect(made.code).toBe(0);
    expect(existsSync(join(work, 'new/sub/app.swbn'))).toBe(true);
    writeFileSync(join(work, 'afile'), 'x');
    const refused = svc(['pack', 'app', '--out', 'afile/app.swbn']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--out afile/app.swbn cannot be written (ENOTDIR: a part of its folder is a file, not a folder): choose a folder',
    );
    expect(refused.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(temporaries(work)).toEqual([]);
  });

  it('svc types refuses a folder as --out, and a path it cannot write, leaving nothing beside them', () => {
    const folder = svc(['types', 'app', '--out', 'app/icons']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain("--out app/icons is a folder; name the declarations' file");
    const refused = svc(['types', 'app', '--out', 'afile/x.d.ts']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/afile\/x\.d\.ts cannot be written \(E[A-Z]+/);
    expect(temporaries(work)).toEqual([]);
  });

  it('never replaces a device given as the output (/dev/stdout leads to a terminal, /dev/full or a pipe)', () => {
    // Exit 2, as every --out that cannot be written, for both commands.
    for (const command of ['types', 'pack']) {
      const run = svc([command, 'app', '--out', '/dev/stdout']);
      expect(run.code, command).toBe(2);
      expect(run.stderr).toContain('--out /dev/stdout is a device, a pipe or a socket, not a file');
    }
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });

  it('exits 2 with a sentence when its report cannot be written (a full disk), and quietly when the reader left', () => {
    expect(svc(['pack', 'app', '--out', 'full.swbn']).code).toBe(0);
    const full = svc(['verify', 'full.swbn', '--json'], { stdout: openFull() });
    expect(full.code).toBe(2);
    expect(full.stderr).toBe('svc: its output could not be written: standard output (ENOSPC)\n');
  });
});

/** /dev/full opened for writing: every write fails with ENOSPC. */
function openFull(): number {
  return openSync('/dev/full', 'w');
}

describe('svc pack in a pipeline', () => {
  it('leaves out the declarations svc types wrote beside the manifest, and says so', () => {
    expect(svc(['types', 'app']).code).toBe(0);
    const packed = svc(['pack', 'app', '--out', 'typed.swbn']);
    expect(packed.code).toBe(0);
    expect(packed.stderr).toMatch(/left out .*svc-actions\.d\.ts/);
    expect(svc(['verify', 'typed.swbn']).stdout).not.toContain('svc-actions.d.ts');
  });

  it('lists every problem of the folder at once, as svc validate does', () => {
    const dir = join(work, 'many');
    mkdirSync(dir);
    const manifest = JSON.parse(readFileSync(join(work, 'app/manifest.json'), 'utf8'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, icons: [] }));
    writeFileSync(join(dir, 'bad name.js'), '');
    const run = svc(['pack', 'many', '--key', join(home, 'keys', `${manifest.id}.pem`)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('index.html');
    expect(run.stderr).toContain('icons');
    expect(run.stderr).toContain('bad name.js cannot be packed');
  });

  it('says it waits for a key on a silent standard input, and refuses a terminal', async () => {
    const child = spawn(process.execPath, [CLI, 'pack', 'app', '--key', '-', '--out', 'silent.swbn'], {
      cwd: work,
      env: { ...process.env, SVC_STATE_DIR: home },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise((done) => setTimeout(done, 6500));
    expect(stderr).toContain('waiting for the key on standard input (--key -): pipe it in, or press Ctrl-C');
    child.kill('SIGINT');
    await new Promise((done) => child.once('exit', done));
    // A pseudo-terminal as standard input, through Python's pty module.
    const tty = spawnSync(
      'python3',
      [
        '-c',
        'import os,subprocess,sys; m,s=os.openpty(); p=subprocess.run(sys.argv[1:], stdin=s, capture_output=True, timeout=30); sys.stderr.write(p.stderr.decode()); sys.exit(p.returncode)',
        process.execPath,
        CLI,
        'pack',
        'app',
        '--key',
        '-',
      ],
      { cwd: work, encoding: 'utf8', env: { ...process.env, SVC_STATE_DIR: home } },
    );
    expect(tty.status).toBe(2);
    expect(tty.stderr).toContain('the key on standard input: standard input is a terminal; pipe the key in');
  }, 30_000);
});

describe('svc check --json', () => {
  it('prints a JSON report for a manifest that is missing or not JSON', () => {
    const missing = svc(['check', 'nowhere', '--json']);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, findings: [], error: { code: 'unreadable' } });
    mkdirSync(join(work, 'broken'));
    writeFileSync(join(work, 'broken/manifest.json'), '{x');
    const broken = svc(['check', 'broken', '--json']);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false, error: { code: 'bad_json' } });
    expect(broken.stderr).toContain('is not valid JSON');
  });

  it('prints a JSON report for a refused command line too, in check, validate and verify', () => {
    for (const args of [
      ['check', '--json', '--inclde', 'src/**'],
      ['validate', '--previous-version', 'x', '--json'],
      ['verify', '--json'],
      ['validate', '--json=1'],
    ]) {
      const run = svc(args);
      expect(run.code).toBe(2);
      const report = JSON.parse(run.stdout) as { ok: boolean; error: { code: string; message: string } };
      expect(report).toMatchObject({ ok: false, error: { code: 'usage' } });
      // The same sentence as on stderr, for a log that keeps only one of them.
      expect(run.stderr).toContain(report.error.message);
    }
    expect(JSON.parse(svc(['check', '--json', '--inclde', 'src/**']).stdout).error.message).toContain(
      'did you mean --include?',
    );
    expect(svc(['validate', '--json=1']).stderr).toContain('svc validate: --json takes no value: write --json alone');
    // A --json after -- is an argument, not the option: no report.
    expect(svc(['validate', '--bogus', '--', '--json']).stdout).toBe('');
  });
});

describe('svc dev refused for a taken port', () => {
  it('writes no state file and tells of no new secret', async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    try {
      const run = svc(['dev', 'app', '--port', String(port), '--state', 'fresh/state.json']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`port ${port} (--port) is taken by another program`);
      expect(run.stderr).not.toContain('signing secret');
      expect(existsSync(join(work, 'fresh/state.json'))).toBe(false);
      // The package's port given and taken: refused the same way, before the state too.
      const pkg = svc(['dev', 'app', '--port', '0', '--package-port', String(port), '--state', 'fresh/state.json']);
      expect(pkg.code).toBe(2);
      expect(pkg.stderr).toContain(`port ${port} (--package-port) is taken by another program`);
      expect(pkg.stderr).not.toContain('signing secret');
      expect(existsSync(join(work, 'fresh/state.json'))).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe('svc init in a project', () => {
  it("maps the manifest in the project's .vscode/settings.json, writing through a link there", () => {
    const project = join(work, 'project');
    mkdirSync(join(project, '.vscode'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{}');
    writeFileSync(join(work, 'shared-settings.json'), '{ "editor.tabSize": 2 }');
    symlinkSync(join(work, 'shared-settings.json'), join(project, '.vscode/settings.json'));
    const run = svc(['init', 'apps/one'], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('added the manifest schema to .vscode/settings.json');
    expect(lstatSync(join(project, '.vscode/settings.json')).isSymbolicLink()).toBe(true);
    const settings = JSON.parse(readFileSync(join(work, 'shared-settings.json'), 'utf8'));
    expect(settings['editor.tabSize']).toBe(2);
    expect(settings['json.schemas'][0].fileMatch).toEqual(['/apps/one/manifest.json']);
    // A link to a settings file that is not there yet is written through as well.
    const other = join(work, 'other-project');
    mkdirSync(join(other, '.vscode'), { recursive: true });
    writeFileSync(join(other, 'package.json'), '{}');
    symlinkSync(join(work, 'kept/settings.json'), join(other, '.vscode/settings.json'));
    expect(svc(['init', 'app'], { cwd: other }).code).toBe(0);
    expect(lstatSync(join(other, '.vscode/settings.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(work, 'kept/settings.json'), 'utf8'))['json.schemas']).toHaveLength(1);
  });
});
