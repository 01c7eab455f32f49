// Shipping an app through the built bin: keygen, init, pack, verify, dev, publish and a key rotation from a clean
// folder with the CLI installed from the packed tarballs (svc-sdk, and svc-sdk-dev for pack, dev and publish); the openssl-recomputed id; a changed byte anywhere caught;
// and every bad input refused with exit 1 and a message saying what to do, writing nothing.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const devPackage = join(root, 'packages/svc-sdk-dev');
const built =
  existsSync(join(root, 'dist/cli.js')) &&
  existsSync(join(root, 'dist/package.js')) &&
  existsSync(join(devPackage, 'dist/run-cli.js'));
const vectors = join(root, 'vectors/package');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** Runs `bin` (a path to the svc bin, or dist/cli.js) in `cwd` with its own key folder. */
function runner(bin: string, home: string) {
  return (args: string[], cwd: string, input?: string) => {
    const run = spawnSync(process.execPath, [bin, ...args], {
      cwd,
      input,
      encoding: 'utf8',
      env: { ...process.env, SVC_STATE_DIR: home, NO_COLOR: '1' },
      timeout: 60_000,
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
}

/** The id openssl derives from a key file (the command docs/ship.md gives). */
const opensslId = (key: string) =>
  execFileSync('sh', ['-c', `openssl pkey -in '${key}' -pubout -outform DER | sha256sum | cut -c1-16`], {
    encoding: 'utf8',
  }).trim();

/** An app folder as `svc init` leaves it, plus the entry document and icons a package needs. */
function completeApp(dir: string, page = 'v1'): void {
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><title>x</title></head><body>${page}</body></html>`,
  );
  mkdirSync(join(dir, 'icons'), { recursive: true });
  writeFileSync(join(dir, 'icons/icon-192.png'), PNG);
  writeFileSync(join(dir, 'icons/icon-512.png'), PNG);
}
const setVersion = (dir: string, version: string) => {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  manifest.version = version;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
};

describe.runIf(built)('shipping an app with the CLI from the packed tarball', () => {
  let dir: string;
  let svc: ReturnType<typeof runner>;
  let binPath: string;
  const children: ReturnType<typeof spawn>[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-ship-'));
    const npm = (args: string[], cwd: string) => {
      const run = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 120_000 });
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
      return run.stdout.trim();
    };
    const tarballs = [root, devPackage].map((folder) =>
      join(dir, npm(['pack', '--silent', '--ignore-scripts', '--pack-destination', dir, folder], dir)),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ship', private: true, type: 'module' }));
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], dir);
    binPath = join(dir, 'node_modules/svc-sdk/dist/cli.js');
    svc = runner(binPath, join(dir, 'home'));
  }, 180_000);
  afterAll(() => {
    for (const child of children) child.kill('SIGINT');
    rmSync(dir, { recursive: true, force: true });
  });

  it('keygen, init, pack, verify, dev, publish and rotate, from a clean folder', async () => {
    // keygen: the id, recomputed by openssl; the key mode 600 outside the project; the private key never printed.
    const keygen = svc(['keygen'], dir);
    expect(keygen.code, keygen.stderr).toBe(0);
    const id = /^id ([0-9a-f]{16})$/m.exec(keygen.stdout)![1]!;
    const key = join(dir, 'home/keys', `${id}.pem`);
    expect(opensslId(key)).toBe(id);
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(keygen.stdout).toContain('-----BEGIN PUBLIC KEY-----');
    expect(keygen.stdout).not.toContain('PRIVATE KEY');

    // init with that key writes its id; pack finds the key by the id; the same folder gives the same bytes.
    expect(svc(['init', 'app', '--key', key, '--name', 'Ship Test'], dir).code).toBe(0);
    const app = join(dir, 'app');
    expect(JSON.parse(readFileSync(join(app, 'manifest.json'), 'utf8')).id).toBe(id);
    completeApp(app);
    const packed = svc(['pack', 'app'], dir);
    expect(packed.code, packed.stderr).toBe(0);
    expect(packed.stdout).toMatch(new RegExp(`^wrote ship-test-0.1.0.swbn \\(4 files, \\d+ bytes\\), id ${id}`));
    const first = readFileSync(join(dir, 'ship-test-0.1.0.swbn'));
    expect(svc(['pack', 'app', '--out', 'again.swbn'], dir).code).toBe(0);
    expect(readFileSync(join(dir, 'again.swbn')).equals(first)).toBe(true);
    const verified = svc(['verify', 'ship-test-0.1.0.swbn'], dir);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`valid: Ship Test 0.1.0, id ${id}`);
    expect(verified.stdout).toContain(`signed by ed25519 key ${id} (the id is derived from it)`);

    // A changed byte anywhere (samples across the whole file here; every byte in test/package) is refused.
    for (let at = 0; at < first.length; at += Math.ceil(first.length / 16)) {
      const copy = Buffer.from(first);
      copy[at]! ^= 0x01;
      writeFileSync(join(dir, 'tampered.swbn'), copy);
      const run = svc(['verify', 'tampered.swbn'], dir);
      expect(run.code, `byte ${at}: ${run.stdout}`).toBe(1);
      expect(run.stderr).toMatch(/tampered.swbn: invalid \([a-z-]+\): /);
    }
    const tamperedDev = svc(['dev', 'tampered.swbn', '--port', '0', '--no-mcp'], dir);
    expect(tamperedDev.code).toBe(1);
    expect(tamperedDev.stderr).toContain('is not a package a host would run');

    // dev runs the package; publish uploads new versions to its store.
    const child = spawn(
      process.execPath,
      [binPath, 'dev', 'ship-test-0.1.0.swbn', '--port', '0', '--no-mcp', '--quiet', '--backend-env', 'backend.env'],
      {
        cwd: dir,
        env: { ...process.env, SVC_STATE_DIR: join(dir, 'home') },
      },
    );
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    for (let i = 0; i < 400 && !/package at (\S+);/.test(err); i++) await new Promise((r) => setTimeout(r, 50));
    const url = new URL(out.trim()).origin;
    const appUrl = /package at (\S+);/.exec(err)![1]!;
    expect(await (await fetch(appUrl)).text()).toContain('v1');
    const servedVersion = () => /^SVC_APP_VERSION=(.*)$/m.exec(readFileSync(join(dir, 'backend.env'), 'utf8'))?.[1];
    expect(servedVersion()).toBe('0.1.0');
    // The package svc dev started with, published again (a retried CI step): nothing to do, and no failure.
    const same = svc(['publish', 'ship-test-0.1.0.swbn', '--to', url], dir);
    expect([same.code, same.stderr]).toEqual([0, '']);
    expect(same.stdout).toMatch(
      /^already published ship-test-0\.1\.0\.swbn: This package is [0-9a-f]{16} 0\.1\.0 as the store accepted it at .*the same bytes/,
    );
    // A changed build under the same version is a reused version.
    completeApp(app, 'v1 changed');
    const repacked = svc(['pack', 'app'], dir);
    expect(repacked.code).toBe(0);
    expect(repacked.stderr).toContain(
      'svc pack: warning: replaced ship-test-0.1.0.swbn, which held another package: if that one is published, it is the copy you had',
    );
    const reused = svc(['publish', 'ship-test-0.1.0.swbn', '--to', url], dir);
    expect(reused.code).toBe(1);
    // The problem's code comes first, as ship.md names it.
    expect(reused.stderr).toContain('svc publish: refused (409 version-not-higher: The version is not higher');
    expect(reused.stderr).toContain('Version 0.1.0 is not higher than 0.1.0');
    expect(reused.stderr).toContain('0.1.0 was published with other bytes: a changed app is a new version.');
    setVersion(app, '0.2.0');
    completeApp(app, 'v2');
    expect(svc(['pack', 'app'], dir).code).toBe(0);
    const published = svc(['publish', 'ship-test-0.2.0.swbn', '--to', url], dir);
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toContain(`${id} 0.2.0`);
    expect(await (await fetch(appUrl)).text()).toContain('v2');
    // The backend's env file names the version served now (svc trigger sends it), before the publisher is answered.
    expect(servedVersion()).toBe('0.2.0');
    // An env file that cannot be written (a folder in its place): published all the same, and the publisher hears
    // that the backend still has the version before, not only svc dev's terminal.
    rmSync(join(dir, 'backend.env'));
    mkdirSync(join(dir, 'backend.env'));

    // Rotate: one release signed by the old and the new key moves the id to the new key.
    expect(svc(['keygen', '--out', 'new.pem'], dir).code).toBe(0);
    execFileSync('openssl', ['pkey', '-in', 'new.pem', '-pubout', '-out', 'new.pub.pem'], { cwd: dir });
    const newId = opensslId(join(dir, 'new.pem'));
    setVersion(app, '0.3.0');
    expect(svc(['pack', 'app', '--key', key, '--key', 'new.pem'], dir).code).toBe(0);
    const rotation = svc(['publish', 'ship-test-0.3.0.swbn', '--to', url], dir);
    expect(rotation.code, rotation.stderr).toBe(0);
    expect(rotation.stdout).toContain(`the id is bound to key ${newId}`);
    expect(rotation.stderr).toMatch(
      /^svc publish: but svc dev says: --backend-env backend\.env could not be rewritten \(EISDIR.*\), so your backend still has the version before: make it writable; it is written again at the next version or secret change\.\n$/,
    );
    rmSync(join(dir, 'backend.env'), { recursive: true });
    setVersion(app, '0.4.0');
    const notDerived = svc(['pack', 'app', '--key', 'new.pem'], dir);
    expect(notDerived.code).toBe(1);
    expect(notDerived.stderr).toContain(`is derived from none of the signing keys (${newId} from new.pem)`);
    expect(svc(['pack', 'app', '--key', 'new.pem', '--rotated'], dir).code).toBe(0);
    expect(svc(['verify', 'ship-test-0.4.0.swbn'], dir).stderr).toContain('invalid (untrusted-key)');
    expect(svc(['verify', 'ship-test-0.4.0.swbn', '--trust', 'new.pub.pem'], dir).code).toBe(0);
    const fourth = svc(['publish', 'ship-test-0.4.0.swbn', '--to', url], dir);
    expect(fourth.code).toBe(0);
    expect(fourth.stderr).toBe('');
    expect(servedVersion()).toBe('0.4.0');
    setVersion(app, '0.5.0');
    expect(svc(['pack', 'app', '--key', key], dir).code).toBe(0);
    const oldKey = svc(['publish', 'ship-test-0.5.0.swbn', '--to', url], dir);
    expect(oldKey.code).toBe(1);
    // The old key alone, as `svc pack app` without --key signs after a rotation: the advice is the rotated pack.
    expect(oldKey.stderr).toContain(`moved from the key ${id}, which signed the package, to ${newId} in a rotation`);
    expect(oldKey.stderr).toContain(
      `Sign with ${newId} alone: svc pack <the app folder> --key <its file> --rotated (without --key`,
    );
  }, 120_000);

  it('ships PACKAGE.md, the test vectors and svc-sdk/package for ESM and CommonJS', () => {
    const installed = join(dir, 'node_modules/svc-sdk');
    expect(existsSync(join(installed, 'PACKAGE.md'))).toBe(true);
    expect(svc(['verify', join(installed, 'vectors/package/valid.swbn')], dir).code).toBe(0);
    const script = `const { verifyPackage } = await import('svc-sdk/package');
      const { readFileSync } = await import('node:fs');
      const p = await verifyPackage(readFileSync('node_modules/svc-sdk/vectors/package/valid-p256.swbn'));
      console.log(p.signers[0].type, require('svc-sdk/package').PackageError.name);`;
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${script}`,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('ecdsa-p256 PackageError');
  });
});

describe.runIf(built)('bad input: exit 1, a message saying what to do, nothing written', () => {
  const home = mkdtempSync(join(tmpdir(), 'svc-bad-home-'));
  const svc = runner(join(root, 'dist/cli.js'), home);
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bad-'));
    expect(svc(['keygen', '--out', 'key.pem'], dir).code).toBe(0);
    expect(svc(['init', 'app', '--key', 'key.pem'], dir).code).toBe(0);
    completeApp(join(dir, 'app'));
    return dir;
  };
  const swbnIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.swbn'));

  it.each([
    ['empty.swbn', 'empty'],
    ['truncated.swbn', 'truncated'],
    ['bad-magic.swbn', 'bad-magic'],
    ['no-signature.swbn', 'no-signature'],
    ['unknown-signature-type.swbn', 'unknown-signature-type'],
    ['tampered-file.swbn', 'bad-signature'],
    ['id-of-other-key.swbn', 'untrusted-key'],
    ['manifest-id-differs.swbn', 'id-mismatch'],
    ['bad-path-dot-dot.swbn', 'bad-path'],
    ['bad-path-backslash.swbn', 'bad-path'],
    ['bad-path-absolute-url.swbn', 'bad-path'],
    ['duplicate-path.swbn', 'duplicate-path'],
    ['missing-entry.swbn', 'missing-file'],
    ['invalid-manifest.swbn', 'invalid-manifest'],
  ])('svc verify %s: exit 1 (%s)', (file, code) => {
    const run = svc(['verify', join(vectors, file)], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`invalid (${code}): `);
  });

  it('svc verify: a file that is not there, or a PNG, is told apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bad-'));
    expect(svc(['verify', 'nope.swbn'], dir)).toMatchObject({ code: 2 });
    const json = svc(['verify', 'nope.swbn', '--json'], dir);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      code: 'unreadable',
      message: 'nope.swbn does not exist; pass the .swbn file `svc pack` wrote',
    });
    writeFileSync(join(dir, 'icon.swbn'), PNG);
    expect(svc(['verify', 'icon.swbn'], dir).stderr).toContain('invalid (bad-magic)');
    // A manifest's issues one to a line, as svc validate writes them (not joined by a written-out \u000a).
    const manifest = svc(['verify', join(root, 'vectors/package/invalid-manifest.swbn')], dir);
    expect(manifest.stderr).toMatch(
      /invalid \(invalid-manifest\): \/manifest\.json is not a valid manifest:\n {2}\$\.version is not/,
    );
  });

  it('svc pack refuses a key of another id, a public key, a file that is no key, naming them', () => {
    const dir = fresh();
    expect(svc(['keygen', '--out', 'other.pem'], dir).code).toBe(0);
    const other = svc(['pack', 'app', '--key', 'other.pem'], dir);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      `is derived from none of the signing keys (${opensslId(join(dir, 'other.pem'))} from`,
    );
    execFileSync('openssl', ['pkey', '-in', 'key.pem', '-pubout', '-out', 'pub.pem'], { cwd: dir });
    expect(svc(['pack', 'app', '--key', 'pub.pem'], dir).stderr).toContain(
      'pub.pem is a public key; signing needs the private key',
    );
    writeFileSync(join(dir, 'junk.pem'), 'hello');
    expect(svc(['pack', 'app', '--key', 'junk.pem'], dir).stderr).toContain('junk.pem is not a private key in PEM');
    // Another kind of key is named as a person names it, the curve where the curve is what is refused.
    const write = (file: string, key: KeyObject) =>
      writeFileSync(join(dir, file), key.export({ format: 'pem', type: 'pkcs8' }));
    write('rsa.pem', generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey);
    write('p384.pem', generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey);
    write('ed448.pem', generateKeyPairSync('ed448').privateKey);
    expect(svc(['pack', 'app', '--key', 'rsa.pem'], dir).stderr).toContain('rsa.pem is an RSA key; a package is');
    expect(svc(['pack', 'app', '--key', 'p384.pem'], dir).stderr).toContain('p384.pem is an ECDSA key on P-384;');
    expect(svc(['pack', 'app', '--key', 'ed448.pem'], dir).stderr).toContain('ed448.pem is an Ed448 key;');
    // A key under a passphrase (PKCS#8's form, and the older one of an EC key): the command that writes a copy
    // without it runs as printed.
    execFileSync('openssl', ['pkey', '-in', 'key.pem', '-aes-256-cbc', '-passout', 'pass:x', '-out', 'my key.pem'], {
      cwd: dir,
    });
    const locked = svc(['pack', 'app', '--key', 'my key.pem'], dir).stderr;
    const command = `(umask 077; openssl pkey -in '${join(dir, 'my key.pem')}' -out unencrypted-key.pem && chmod 600 unencrypted-key.pem)`;
    // A copy left there before, readable by others, is made this user's alone.
    writeFileSync(join(dir, 'unencrypted-key.pem'), '', { mode: 0o644 });
    expect(locked).toContain(`my key.pem is encrypted with a passphrase; write an unencrypted copy, ${command}, or`);
    execFileSync('sh', ['-c', command.replace(' -out', ' -passin pass:x -out')], { cwd: dir });
    expect(statSync(join(dir, 'unencrypted-key.pem')).mode & 0o777).toBe(0o600);
    expect(svc(['pack', 'app', '--key', 'unencrypted-key.pem', '--out', 'open.swbn'], dir).code).toBe(0);
    const piped = svc(['pack', 'app', '--key', '-'], dir, readFileSync(join(dir, 'my key.pem'), 'utf8')).stderr;
    expect(piped).toContain(
      'write an unencrypted copy, piping the key to (umask 077; openssl pkey -out unencrypted-key.pem && chmod 600 unencrypted-key.pem), or sign',
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    writeFileSync(
      join(dir, 'old.pem'),
      ec.export({ format: 'pem', type: 'sec1', cipher: 'aes-256-cbc', passphrase: 'x' }) as string,
    );
    expect(svc(['pack', 'app', '--key', 'old.pem'], dir).stderr).toContain('old.pem is encrypted with a passphrase');
    rmSync(join(dir, 'open.swbn'));
    expect(swbnIn(dir)).toEqual([]);
  });

  it('svc pack --out never overwrites a key, the manifest or a folder; an older package there is replaced', () => {
    const dir = fresh();
    const key = readFileSync(join(dir, 'key.pem'));
    const manifest = readFileSync(join(dir, 'app/manifest.json'));
    const swapped = svc(['pack', 'app', '--key', 'key.pem', '--out', 'key.pem'], dir);
    expect(swapped.code).toBe(1);
    expect(swapped.stderr).toContain('--out key.pem is a key it signs with: the package would replace the key.');
    const onManifest = svc(['pack', 'app', '--key', 'key.pem', '--out', 'app/manifest.json'], dir);
    expect(onManifest.code).toBe(1);
    expect(onManifest.stderr).toContain(
      '--out app/manifest.json exists and is not a package, so it would be overwritten: choose another --out, or remove the file first.',
    );
    const onFolder = svc(['pack', 'app', '--key', 'key.pem', '--out', 'app'], dir);
    expect([onFolder.code, onFolder.stderr]).toEqual([
      2,
      expect.stringContaining('--out app is a folder: name the package'),
    ]);
    expect(readFileSync(join(dir, 'key.pem')).equals(key)).toBe(true);
    expect(readFileSync(join(dir, 'app/manifest.json')).equals(manifest)).toBe(true);
    expect(swbnIn(dir)).toEqual([]);
    // A pipe in the folder is named as left out (and packing does not wait on it).
    execFileSync('mkfifo', [join(dir, 'app/pipe')]);
    const packed = svc(['pack', 'app', '--key', 'key.pem', '--out', 'app.swbn'], dir);
    expect(packed.code).toBe(0);
    expect(packed.stderr).toContain('svc pack: left out .vscode, pipe (not a file)');
    setVersion(join(dir, 'app'), '0.2.0');
    expect(svc(['pack', 'app', '--key', 'key.pem', '--out', 'app.swbn'], dir).code).toBe(0);
    expect(svc(['verify', 'app.swbn'], dir).stdout).toContain('0.2.0');
  });

  it('svc pack --key - reads the key from standard input, as a CI step pipes its secret', () => {
    const dir = fresh();
    const key = readFileSync(join(dir, 'key.pem'), 'utf8');
    const piped = svc(['pack', 'app', '--key', '-', '--out', 'ci.swbn'], dir, key);
    expect(piped.code, piped.stderr).toBe(0);
    expect(svc(['verify', 'ci.swbn'], dir).code).toBe(0);
    const junk = svc(['pack', 'app', '--key', '-', '--out', 'junk.swbn'], dir, 'hello');
    expect(junk.code).toBe(1);
    expect(junk.stderr).toContain('the key on standard input is not a private key in PEM');
    // A secret that is not set pipes nothing: missing input (2), said as such.
    const empty = svc(['pack', 'app', '--key', '-', '--out', 'empty.swbn'], dir, '\n');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(
      `the key on standard input is empty (a secret or variable that is not set?): pipe the key in, such as printf '%s\\n' "$SVC_APP_KEY" | svc …\n`,
    );
  });

  it('svc pack without --key names a manifest id that is no id, not a missing key', () => {
    const dir = fresh();
    const file = join(dir, 'app/manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...manifest, id: manifest.id.toUpperCase() }));
    const run = svc(['pack', 'app'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `$.id is "${manifest.id.toUpperCase()}": an app's id is 16 lowercase hex characters, derived from its key.`,
    );
    expect(swbnIn(dir)).toEqual([]);
  });

  it('an app name a bidirectional override would reorder is refused by svc pack and svc dev, and said without it', () => {
    const dir = fresh();
    const manifestPath = join(dir, 'app', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    // "Polls \u202egnp.exe" would show as "Polls exe.png" in the messenger and to agents.
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, name: 'Polls \u202egnp.exe' }));
    const packed = svc(['pack', 'app', '--key', 'key.pem', '--out', 'p.swbn'], dir);
    expect(packed.code).toBe(1);
    expect(packed.stderr).toContain('$.name holds the bidirectional control U+202E at character 7');
    expect(packed.stderr + packed.stdout).not.toContain('\u202e');
    expect(existsSync(join(dir, 'p.swbn'))).toBe(false);
    const dev = svc(['dev', 'app', '--port', '0'], dir);
    expect(dev.code).toBe(1);
    expect(dev.stderr).toContain('$.name holds the bidirectional control U+202E');
    expect(dev.stderr).not.toContain('\u202e');
  });

  it('svc pack refuses a missing entry or icon, an invalid manifest, bad file names, a key inside, and an oversized app', async () => {
    const dir = fresh();
    const app = join(dir, 'app');
    const pack = () => svc(['pack', 'app', '--key', 'key.pem'], dir);
    rmSync(join(app, 'icons/icon-512.png'));
    expect(pack().stderr).toContain('$.icons[1].src names icons/icon-512.png, which is not in');
    completeApp(app);
    rmSync(join(app, 'index.html'));
    expect(pack().stderr).toContain('$.entry names index.html');
    completeApp(app);
    setVersion(app, '1.0');
    expect(pack().stderr).toContain('$.version');
    setVersion(app, '1.0.0');
    writeFileSync(join(app, 'my file.js'), '');
    expect(pack().stderr).toContain('my file.js cannot be packed');
    rmSync(join(app, 'my file.js'));
    const pem = readFileSync(join(dir, 'key.pem'), 'utf8');
    // The key as svc keygen writes it; after the lines `openssl pkcs12 -nodes` writes before it; after 100 blank
    // lines; its base64 pasted into a script; and as a JSON Web Key.
    const der = execFileSync('openssl', ['pkey', '-in', 'key.pem', '-outform', 'DER'], { cwd: dir });
    const jwk = createPrivateKey(pem).export({ format: 'jwk' });
    const leaks = {
      'leak.pem': pem,
      'backup.pem': `Bag Attributes\n    localKeyID: 5A 1F 0C 33\n    friendlyName: svc-app\nKey Attributes: <No Attributes>\n${pem}`,
      'notes.txt': `${'\n'.repeat(100)}${pem}`,
      'config.js': `export const signingKey = '${der.toString('base64')}';\n`,
      'key.json': JSON.stringify({ x: jwk.x, d: jwk.d, crv: jwk.crv, kty: jwk.kty }),
    };
    for (const [name, text] of Object.entries(leaks)) {
      writeFileSync(join(app, name), text);
      expect(pack().stderr, name).toContain(`${name} is or holds a private key; keep keys out of the app folder`);
      rmSync(join(app, name));
    }
    // A library that writes keys (jsencrypt) holds the marker as text in its code, not a key: it is packed.
    writeFileSync(
      join(app, 'keys.js'),
      'var key = "-----BEGIN RSA PRIVATE KEY-----\\n";\nkey += wordwrap(this.getPrivateBaseKeyB64()) + "\\n";\nkey += "-----END RSA PRIVATE KEY-----";\n',
    );
    const packed = svc(['pack', 'app', '--key', 'key.pem', '--out', 'lib.swbn'], dir);
    expect(packed.code, packed.stderr).toBe(0);
    rmSync(join(dir, 'lib.swbn'));
    rmSync(join(app, 'keys.js'));
    // svc dev's state and backend env files, which hold the signing secret, when they were written into the folder.
    const devSecrets = {
      'state.json': [
        '{"svc_dev_state":1,"state":{}}\n',
        "state.json is svc dev's state file, which holds the signing secret; keep it out of the app folder",
      ],
      'backend.env': [
        'SVC_API_BASE=http://127.0.0.1:1/v1\nSVC_SIGNING_SECRET=whsec_x\n',
        "backend.env holds SVC_SIGNING_SECRET, the backend's signing secret; keep it out of the app folder",
      ],
      // A copy saved pretty-printed with a byte order mark, and an env file that exports the secret.
      'copy.json': [
        '\uFEFF{\n  "svc_dev_state": 1,\n  "state": {}\n}\n',
        "copy.json is svc dev's state file, which holds the signing secret; keep it out of the app folder",
      ],
      'env.sh': [
        'export SVC_SIGNING_SECRET=whsec_x\n',
        "env.sh holds SVC_SIGNING_SECRET, the backend's signing secret; keep it out of the app folder",
      ],
    };
    for (const [name, [text, refusal]] of Object.entries(devSecrets)) {
      writeFileSync(join(app, name), text!);
      expect(pack().stderr, name).toContain(refusal);
      rmSync(join(app, name));
    }
    // The same key in DER, as `openssl pkey -outform DER` and KMS exports write it.
    writeFileSync(join(app, 'leak.der'), der);
    expect(pack().stderr).toContain('leak.der is or holds a private key; keep keys out of the app folder');
    rmSync(join(app, 'leak.der'));
    // Files whose sizes add up to less than the limit, whose package is over it: each file's path and headers count.
    writeFileSync(join(app, 'near.bin'), Buffer.alloc(33_554_432 - 1200));
    const near = pack();
    expect(near.code).toBe(1);
    const overByIndex =
      /the package is (\d+) bytes, \d+ over the limit of 33554432: the files add up to \d+ bytes, and the index, headers and signature of \d+ files take \d+ more; the largest: near\.bin \(\d+ bytes\)/;
    expect(near.stderr).toMatch(overByIndex);
    // svc validate of the folder says so too, with the same size, before svc pack (the app's key is Ed25519).
    const nearValidated = svc(['validate', 'app'], dir);
    expect(nearValidated.code).toBe(1);
    expect(nearValidated.stdout).toMatch(overByIndex);
    expect(nearValidated.stdout.match(overByIndex)![1]).toBe(near.stderr.match(overByIndex)![1]);
    rmSync(join(app, 'near.bin'));
    // A file of gigabytes (a video, a data dump) is refused from its size, before anything is read: read whole, it
    // took gigabytes of memory and crashed Node past 512 MiB. A sparse file: no disk is used.
    writeFileSync(join(app, 'small.bin'), 'x');
    truncateSync(join(app, 'small.bin'), 3 * 1024 ** 3);
    const big = pack();
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(
      /the files add up to 32212\d{5} bytes, 31\d{8} over the package limit of 33554432; the largest: small\.bin \(3221225472 bytes\), /,
    );
    // svc validate of the folder says so too, before svc pack.
    const validated = svc(['validate', 'app'], dir);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toMatch(
      /app\/manifest\.json:1:1 {2}error: svc pack would refuse .*app: the files add up to \d+ bytes, \d+ over the package limit of 33554432; the largest: small\.bin \(3221225472 bytes\)/,
    );
    // svc dev serves it, and says so once, after its start.
    const dev = spawn(process.execPath, [join(root, 'dist/cli.js'), 'dev', 'app', '--port', '0', '--no-mcp'], {
      cwd: dir,
      env: { ...process.env, SVC_STATE_DIR: home },
    });
    try {
      let err = '';
      dev.stderr.on('data', (d) => (err += d));
      await expect
        .poll(() => err, { timeout: 10_000 })
        .toMatch(
          /^svc dev: warning: svc pack would refuse .*app: the files add up to \d+ bytes, \d+ over the package limit of 33554432; the largest: small\.bin \(3221225472 bytes\)/m,
        );
    } finally {
      dev.kill();
    }
    rmSync(join(app, 'small.bin'));
    expect(svc(['validate', 'app'], dir).code).toBe(0);
    expect(swbnIn(dir)).toEqual([]);
    // A package file of gigabytes is too-large from its size: svc verify, svc publish (nothing sent) and svc dev.
    writeFileSync(join(dir, 'huge.swbn'), 'x');
    truncateSync(join(dir, 'huge.swbn'), 3 * 1024 ** 3);
    const verified = svc(['verify', 'huge.swbn'], dir);
    expect([verified.code, verified.stderr]).toEqual([
      1,
      'svc verify: huge.swbn: invalid (too-large): the package is 3221225472 bytes, over the limit of 33554432; ship smaller assets (compress images, split lazy data to your backend)\n',
    ]);
    const published = svc(['publish', 'huge.swbn', '--to', 'http://127.0.0.1:9'], dir);
    expect([published.code, published.stderr]).toEqual([
      1,
      'svc publish: huge.swbn: refused (too-large): the package is 3221225472 bytes, over the limit of 33554432; ship smaller assets (compress images, split lazy data to your backend)\n',
    ]);
    const devRun = svc(['dev', 'huge.swbn', '--port', '0', '--no-mcp'], dir);
    expect(devRun.code).toBe(1);
    expect(devRun.stderr).toContain(
      'huge.swbn is not a package a host would run (too-large): the package is 3221225472 bytes',
    );
    rmSync(join(dir, 'huge.swbn'));
  }, 60_000);

  it('svc verify, publish, dev and mcp refuse a device, a pipe or a folder given as the package, before reading it, with exit 2', () => {
    const dir = fresh();
    // /dev/zero would be read without end, and opening a pipe nobody writes to waits for ever.
    execFileSync('mkfifo', [join(dir, 'pipe.swbn')]);
    mkdirSync(join(dir, 'folder.swbn'));
    for (const [given, label, code] of [
      // Shown whole, not as ../../dev/zero: it is outside the working folder.
      ['/dev/zero', '/dev/zero', 'not a regular file'],
      ['pipe.swbn', 'pipe.swbn', 'not a regular file'],
      ['folder.swbn', 'folder.swbn', 'EISDIR'],
    ]) {
      const verified = svc(['verify', given!], dir);
      expect([verified.code, verified.stderr]).toEqual([
        2,
        `svc verify: ${label} cannot be read (${code}); pass the .swbn file \`svc pack\` wrote\n`,
      ]);
      const published = svc(['publish', given!, '--to', 'http://127.0.0.1:9'], dir);
      expect([published.code, published.stderr]).toEqual([
        2,
        `svc publish: ${label} cannot be read (${code}); pass the .swbn file \`svc pack\` wrote\n`,
      ]);
      if (!given!.endsWith('.swbn')) continue;
      for (const args of [
        ['dev', given!, '--port', '0', '--no-mcp'],
        ['mcp', given!],
      ]) {
        const run = svc(args, dir);
        expect([run.code, run.stderr]).toEqual([
          2,
          `svc ${args[0]}: ${join(dir, given!)}: cannot be read (${code}); pass the .swbn file \`svc pack\` wrote.\n`,
        ]);
      }
    }
  });

  it("svc pack, svc dev and svc mcp refuse a device or a pipe given as the folder, a plain file as mcp's app, with exit 2", () => {
    const dir = fresh();
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    for (const [given, shown] of [
      ['/dev/zero', '/dev/zero'],
      ['pipe', 'pipe'],
    ]) {
      const packed = svc(['pack', given!], dir);
      expect([packed.code, packed.stderr]).toEqual([
        2,
        `svc pack: ${shown} is not a folder (a device or a pipe): pass the folder that holds manifest.json\nsvc pack: nothing written.\n`,
      ]);
      const dev = svc(['dev', given!, '--port', '0', '--no-mcp'], dir);
      expect([dev.code, dev.stderr]).toEqual([
        2,
        `svc dev: ${shown} is not a folder (a device or a pipe): pass the folder that holds manifest.json\n`,
      ]);
    }
    const page = svc(['mcp', 'app/index.html'], dir);
    expect([page.code, page.stderr]).toEqual([
      2,
      "svc mcp: app/index.html is a file: pass the app's folder, its manifest.json, or its package (file.swbn)\n",
    ]);
    // A manifest named inside a device, a pipe or a file: no svc init offered there, and pack says 2 as the others.
    for (const given of ['/dev/null/manifest.json', 'pipe/manifest.json', 'app/index.html/manifest.json']) {
      const folder = given.slice(0, -'/manifest.json'.length);
      const mcp = svc(['mcp', given], dir);
      expect([mcp.code, mcp.stderr], given).toEqual([
        2,
        `svc mcp: ${join(folder.startsWith('/') ? '' : dir, given)}: ${join(folder.startsWith('/') ? '' : dir, folder)} is not a folder: pass the app's folder, the one that holds manifest.json.\n`,
      ]);
      expect(svc(['pack', given], dir).code, given).toBe(2);
    }
    // A folder whose manifest.json is a pipe or a folder: named at once, never opened (a pipe would wait for ever).
    mkdirSync(join(dir, 'piped'));
    execFileSync('mkfifo', [join(dir, 'piped', 'manifest.json')]);
    mkdirSync(join(dir, 'nested', 'manifest.json'), { recursive: true });
    for (const [folder, what] of [
      ['piped', 'a device or a pipe'],
      ['nested', 'a folder'],
    ] as const)
      for (const command of [['mcp'], ['dev', '--port', '0', '--no-mcp'], ['check'], ['pack']]) {
        const run = svc([command[0]!, folder, ...command.slice(1)], dir);
        expect([run.code, run.stderr.split('\n')[0]], `${command[0]} ${folder}`).toEqual([
          2,
          `svc ${command[0]}: ${folder}/manifest.json is ${what}, not a file: the manifest is a JSON file`,
        ]);
      }
    const absent = svc(['pack', '/nonexistent-svc/manifest.json'], dir);
    expect([absent.code, absent.stderr.split('\n')[0]]).toEqual([
      2,
      'svc pack: /nonexistent-svc/manifest.json does not exist; create one with `svc init`, or pass the path of your manifest',
    ]);
  });

  it('svc pack refuses more files than a package holds, from their count, before reading any', () => {
    const dir = fresh();
    const app = join(dir, 'app');
    mkdirSync(join(app, 'locales'));
    // With the app's own four files, more than 7 CBOR items a file and 8 of the bundle's own allow.
    for (let i = 0; i < 28_570; i++) writeFileSync(join(app, 'locales', `${i}.json`), '{}');
    const run = svc(['pack', 'app', '--key', 'key.pem'], dir);
    expect([run.code, run.stderr]).toEqual([
      1,
      'svc pack: the folder holds 28574 files, more than the 28570 a package holds (its web bundle holds at most 200000 CBOR items, 7 a file); merge small files (one JSON per locale rather than one per namespace) or fetch them from your backend\nsvc pack: nothing written.\n',
    ]);
    const validated = svc(['validate', 'app'], dir);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain(
      `svc pack would refuse ${app}: the folder holds 28574 files, more than the 28570 a package holds`,
    );
    // Over both limits: both said at once (a sparse file, so nothing is written to disk).
    writeFileSync(join(app, 'video.bin'), '');
    truncateSync(join(app, 'video.bin'), 40 << 20);
    const both = svc(['validate', 'app'], dir);
    expect(both.stdout).toMatch(
      /the folder holds 28575 files, more than the 28570 .*; and the files add up to \d+ bytes, \d+ over the package limit/,
    );
  });

  it('svc pack names the first 20 files it leaves out, then how many more (a macOS copy has a ._ file beside each)', () => {
    const dir = fresh();
    for (let i = 0; i < 25; i++) writeFileSync(join(dir, 'app', `._f${String(i).padStart(2, '0')}.js`), 'x');
    const packed = svc(['pack', 'app', '--key', 'key.pem'], dir);
    expect(packed.code).toBe(0);
    const line = packed.stderr.split('\n').find((l) => l.startsWith('svc pack: left out'))!;
    const named = Array.from({ length: 20 }, (_, i) => `._f${String(i).padStart(2, '0')}.js`).join(', ');
    expect(line.startsWith(`svc pack: left out ${named} and `)).toBe(true);
    expect(line).toMatch(/ and \d+ more \(dot-files, earlier packages\)$/);
  });

  it('finds the key saved in other encodings: svc pack refuses the file, and svc dev does not serve it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-encoded-'));
    // No --key: svc init makes the app's key in the keys folder, where svc pack and svc dev find it by the id.
    expect(svc(['init', 'app'], dir).code).toBe(0);
    const app = join(dir, 'app');
    completeApp(app);
    const { id } = JSON.parse(readFileSync(join(app, 'manifest.json'), 'utf8'));
    const pem = readFileSync(join(home, 'keys', `${id}.pem`), 'utf8');
    const seed = Buffer.from(createPrivateKey(pem).export({ format: 'jwk' }).d!, 'base64url');
    const wrapped = (text: string) => Buffer.from(text).toString('base64').replace(/.{76}/g, '$&\n');
    const leaks: Record<string, string | Buffer> = {
      // Windows editors' "Unicode" (UTF-16 with its byte order mark), and UTF-16BE without one.
      'key-utf16.pem': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pem, 'utf16le')]),
      'key-utf16be.pem': Buffer.from(pem, 'utf16le').swap16(),
      // `base64 key.pem` (wrapped at 76), a CI secret on one line, and the base64 of text before the key (so the
      // marker sits one or two bytes into a group).
      'key.b64': wrapped(pem),
      'ci.env': `SIGNING_KEY=${Buffer.from(pem).toString('base64')}\n`,
      'bag.b64': Buffer.from(`Bag Attributes\n${pem}`).toString('base64url'),
      'bag2.b64': Buffer.from(`x\n${pem}`).toString('base64'),
      // A prefix whose length puts a line break inside the encoded marker (50 bytes, wrapped at 76).
      'cut.b64': wrapped(`${'x'.repeat(49)}\n${pem}`),
      // Line breaks that are no line breaks: a JSON string (a service account's private_key), an indented YAML block.
      'sa.json': JSON.stringify({ type: 'service_account', private_key: pem }),
      'values.yaml': `signing:\n  key: |\n${pem.replace(/^/gm, '    ')}`,
      // JSON inside JSON (\\n), each line commented out, an array of lines, HTML entities for the line breaks.
      'nested.json': JSON.stringify(JSON.stringify({ private_key: pem })),
      'commented.sh': pem.replace(/^/gm, '# '),
      'lines.json': JSON.stringify(pem.trim().split('\n')),
      'key.html': `<pre>${pem.replace(/\n/g, '&#10;')}</pre>`,
      // tweetnacl's secret key: the seed, then the public key, in one base64 text.
      'nacl.js': `const secretKey = '${Buffer.concat([seed, Buffer.alloc(32, 7)]).toString('base64')}';\n`,
      // \u000a in a JSON string, a line continued with \, and a ` * ` comment's lines.
      'unicode.json': `{"key": "${pem.trim().replace(/\n/g, '\\u000a')}"}`,
      'continued.properties': `key=${pem.trim().replace(/\n/g, '\\n\\\n  ')}\n`,
      'starred.js': `/*\n${pem.replace(/^/gm, ' * ')}*/\n`,
      // A PKCS#12 file, with a password or without (openssl pkcs12 -export).
      'key.p12': execFileSync('sh', [
        '-c',
        `openssl req -new -x509 -key '${join(home, 'keys', `${id}.pem`)}' -subj /CN=x -days 1 | openssl pkcs12 -export -inkey '${join(home, 'keys', `${id}.pem`)}' -passout pass:x`,
      ]),
      // The base64 of a PKCS#12 file, as a CI secret holds it.
      'p12.b64': execFileSync('sh', [
        '-c',
        `openssl req -new -x509 -key '${join(home, 'keys', `${id}.pem`)}' -subj /CN=x -days 1 | openssl pkcs12 -export -inkey '${join(home, 'keys', `${id}.pem`)}' -passout pass:x | base64`,
      ]),
      // The base64 of a JSON Web Key file.
      'jwk.b64': Buffer.from(JSON.stringify(createPrivateKey(pem).export({ format: 'jwk' }))).toString('base64'),
      // The raw seed: as bytes, in hex (also as openssl pkey -text prints it, and as a byte array), in standard
      // base64; and the PKCS#8 base64 wrapped as a PEM body without its markers (here at 32 columns).
      'seed.bin': Buffer.concat([Buffer.from('seed:'), seed]),
      'seed.hex': `const seed = '${seed.toString('hex')}';\n`,
      'seed.txt': `priv:\n    ${seed
        .toString('hex')
        .toUpperCase()
        .replace(/(..)(?!$)/g, '$1:')
        .replace(/(.{45})/g, '$1\n    ')}\n`,
      'seed-bytes.js': `const seed = [${[...seed].map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(', ')}];\n`,
      'seed.js': `export default ${JSON.stringify(seed.toString('base64'))};\n`,
      'body.txt': createPrivateKey(pem)
        .export({ format: 'der', type: 'pkcs8' })
        .toString('base64')
        .replace(/.{32}/g, '$&\n'),
      // Its seed as other languages write bytes: hex without padding (`b.toString(16)`), Rust's `u8` suffix, C's and
      // Python's `\x8b`, decimal numbers (`Array.from(seed)`) and Java's signed bytes.
      'seed-nopad.js': `const seed = [${[...seed].map((b) => `0x${b.toString(16)}`).join(', ')}];\n`,
      'seed.rs': `const SEED: [u8; 32] = [${[...seed].map((b) => `0x${b.toString(16)}u8`).join(', ')}];\n`,
      'seed.py': `SEED = b"${[...seed].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}"\n`,
      'seed-decimal.js': `const seed = new Uint8Array([${[...seed].join(', ')}]);\n`,
      'Seed.java': `byte[] seed = {${[...seed].map((b) => (b << 24) >> 24).join(', ')}};\n`,
      // A PEM written as string literals joined by +, and line breaks as other entities and escapes spell them.
      'concat.js': `const key =\n${pem
        .trim()
        .split('\n')
        .map((line) => `  '${line}\\n'`)
        .join(' +\n')};\n`,
      'entities.html': `<pre>${pem.replace(/\n/g, '&#010;')}</pre><pre>${pem.replace(/\n/g, '&NewLine;')}</pre>`,
      'braces.js': `const key = "${pem.trim().replace(/\n/g, '\\u{a}')}";\n`,
      // Archived, as a key is backed up beside a project: gzip, and a zip (deflated, behind a first member).
      'key.pem.gz': gzipSync(pem),
      // Zips a streaming writer makes (`jar`, `zip -` to a pipe: no sizes before the data, a descriptor after),
      // deflated and stored, and one behind other bytes (a self-extractor's).
      ...Object.fromEntries(
        [
          ['stream.jar', 'ZIP_DEFLATED', ''],
          ['stream-stored.zip', 'ZIP_STORED', ''],
          ['setup.exe', 'ZIP_DEFLATED', 'MZ'],
        ].map(([name, method, before]) => [
          name,
          execFileSync(
            'sh',
            [
              '-c',
              `printf '${before}'; python3 -c 'import sys,zipfile\nz=zipfile.ZipFile(sys.stdout.buffer,"w",zipfile.${method})\nz.writestr("META-INF/x","y"*300)\nz.writestr("keys/app.pem",sys.stdin.read())\nz.close()' | cat`,
            ],
            { input: pem },
          ),
        ]),
      ),
      // Late in an archive: after 1.5 MiB of log lines in a gzip (a few KB), and as a zip's second member after a
      // first of 2 MiB (the package server read the first MiB of a file).
      'late.gz': gzipSync(Buffer.concat([Buffer.from('log line\n'.repeat(180_000)), Buffer.from(pem)])),
      'late.zip': execFileSync(
        'python3',
        [
          '-c',
          'import io,os,sys,zipfile\nb=io.BytesIO()\nz=zipfile.ZipFile(b,"w",zipfile.ZIP_STORED)\nz.writestr("big.bin",os.urandom(2<<20))\nz.writestr("keys/app.pem",sys.stdin.read())\nz.close()\nsys.stdout.buffer.write(b.getvalue())',
        ],
        { input: pem, maxBuffer: 8 << 20 },
      ),
      // First in an archive whose whole unpacks to far more than is looked at (8 MiB after the key).
      'project.gz': gzipSync(Buffer.concat([Buffer.from(pem), Buffer.alloc(8 << 20, 'a')])),
      'backup.zip': execFileSync(
        'python3',
        [
          '-c',
          'import io,sys,zipfile\nb=io.BytesIO()\nz=zipfile.ZipFile(b,"w",zipfile.ZIP_DEFLATED)\nz.writestr("README","notes\\n"*50)\nz.writestr("keys/app.pem",sys.stdin.read())\nz.close()\nsys.stdout.buffer.write(b.getvalue())',
        ],
        { input: pem },
      ),
    };
    // Other keys than the app's, in base64 without their PEM lines (another app's key in a monorepo, a CI secret):
    // Ed25519 (svc keygen's type), X25519, Ed448, P-384 and RSA; wrapped and indented as a YAML block, in a JSON
    // string with \n between its lines, and a .p12 as Windows' certutil -encode writes it.
    const others = {
      ed25519: generateKeyPairSync('ed25519'),
      x25519: generateKeyPairSync('x25519'),
      ed448: generateKeyPairSync('ed448'),
    };
    for (const [type, { privateKey }] of Object.entries(others))
      leaks[`other-${type}.env`] =
        `OTHER_APP_KEY=${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}\n`;
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'der', type: 'pkcs8' });
    leaks['other-p384.yaml'] =
      `signing:\n  key: |\n${p384.toString('base64').replace(/.{64}/g, '$&\n').replace(/^/gm, '    ')}\n`;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'der', type: 'pkcs8' });
    leaks['other-rsa.json'] = `{"key": "${rsa.toString('base64').replace(/.{76}/g, '$&\\n')}"}`;
    const p12 = execFileSync('sh', [
      '-c',
      `openssl req -new -x509 -key '${join(home, 'keys', `${id}.pem`)}' -subj /CN=x -days 1 | openssl pkcs12 -export -inkey '${join(home, 'keys', `${id}.pem`)}' -passout pass:x`,
    ]);
    // An encrypted PKCS#8 key in DER (openssl pkcs8 -topk8 -outform DER), and its base64.
    const encrypted = others.ed25519.privateKey.export({
      format: 'der',
      type: 'pkcs8',
      cipher: 'aes-256-cbc',
      passphrase: 'x',
    });
    leaks['encrypted.der'] = encrypted;
    leaks['encrypted.env'] = `KEY=${encrypted.toString('base64')}\n`;
    leaks['certutil.txt'] =
      `-----BEGIN CERTIFICATE-----\r\n${p12.toString('base64').replace(/.{64}/g, '$&\r\n')}\r\n-----END CERTIFICATE-----\r\n`;
    // One pack names every file it refuses.
    for (const [name, bytes] of Object.entries(leaks)) writeFileSync(join(app, name), bytes);
    const run = svc(['pack', 'app'], dir);
    expect(run.code).toBe(1);
    for (const name of Object.keys(leaks))
      expect(run.stderr, name).toContain(`${name} is or holds a private key; keep keys out of the app folder`);
    expect(run.stderr).not.toContain(seed.toString('hex'));
    // What holds no private key is packed: the base64 of a public key and of a certificate's PEM, a random hex.
    const publicPem = createPublicKey(pem).export({ format: 'pem', type: 'spki' }) as string;
    const clean = mkdtempSync(join(tmpdir(), 'svc-clean-'));
    expect(svc(['init', 'app'], clean).code).toBe(0);
    completeApp(join(clean, 'app'));
    writeFileSync(join(clean, 'app', 'public.b64'), wrapped(publicPem));
    writeFileSync(join(clean, 'app', 'cert.b64'), wrapped(`-----BEGIN CERTIFICATE-----\n${'A'.repeat(64)}\n`));
    writeFileSync(join(clean, 'app', 'id.hex'), randomBytes(32).toString('hex'));
    // A certificate in DER and in base64 (it starts as an encrypted key's SEQUENCE does, with no algorithm in it).
    const certificate = execFileSync('sh', [
      '-c',
      `openssl req -new -x509 -key '${join(home, 'keys', `${id}.pem`)}' -subj /CN=x -days 1 -outform DER`,
    ]);
    writeFileSync(join(clean, 'app', 'cert.der'), certificate);
    writeFileSync(join(clean, 'app', 'cert.env'), `CERT=${certificate.toString('base64')}\n`);
    // Public keys and a certificate in base64 without PEM lines, and numbers that are no key.
    const otherPublic = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
    writeFileSync(join(clean, 'app', 'public.env'), `PUBLIC_KEY=${otherPublic.toString('base64')}\n`);
    writeFileSync(
      join(clean, 'app', 'table.js'),
      `export const table = [${Array.from({ length: 256 }, (_, i) => (i * 7) % 256).join(', ')}];\n`,
    );
    // A document's shortened example of a key, which holds no key.
    writeFileSync(
      join(clean, 'app', 'help.md'),
      '```\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC...\n-----END PRIVATE KEY-----\n```\n',
    );
    // Long runs of text that hold no key (an asset inlined as a data URL, a font as wrapped base64, gzipped too):
    // millions of base64 characters once overflowed the stack of the key search, and svc pack failed.
    const inlined = `export const font = 'data:font/woff2;base64,${randomBytes(6 << 20).toString('base64')}';\n`;
    const large = {
      'inlined.js': inlined,
      'inlined.js.gz': gzipSync(inlined),
      'font.b64': randomBytes(3 << 20)
        .toString('base64')
        .replace(/.{76}/g, '$&\n'),
    };
    // In both folders: packed from this one, served by svc dev from the other.
    for (const [name, body] of Object.entries(large)) {
      writeFileSync(join(clean, 'app', name), body);
      writeFileSync(join(app, name), body);
    }
    const packed = svc(['pack', 'app'], clean);
    expect(packed.code, packed.stderr).toBe(0);

    // svc dev, through the built bin: none of those files is served; the app's other files are.
    const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'dev', 'app', '--port', '0', '--no-mcp'], {
      cwd: dir,
      env: { ...process.env, SVC_STATE_DIR: home },
    });
    try {
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      for (let i = 0; i < 400 && !/package at (\S+);/.test(err); i++) await new Promise((r) => setTimeout(r, 50));
      const appUrl = /package at (\S+);/.exec(err)![1]!;
      for (const name of Object.keys(leaks)) {
        const response = await fetch(new URL(name, appUrl));
        expect(response.status, name).toBe(404);
        expect(await response.text(), name).toContain(`${name} is or holds a private key; svc pack refuses`);
      }
      expect((await fetch(new URL('index.html', appUrl))).status).toBe(200);
      for (const name of Object.keys(large)) expect((await fetch(new URL(name, appUrl))).status, name).toBe(200);
    } finally {
      child.kill();
    }
    // About twenty runs of the built CLI: 4-8 s on CI, past 20 s once on a machine loaded with browsers.
  }, 60_000);

  it('a P-256 key from svc keygen --type p256 signs a package that verifies, with the id openssl derives', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-p256-'));
    expect(svc(['keygen', '--type', 'p256', '--out', 'p256.pem'], dir).code).toBe(0);
    const id = opensslId(join(dir, 'p256.pem'));
    expect(svc(['init', 'app', '--key', 'p256.pem'], dir).code).toBe(0);
    completeApp(join(dir, 'app'));
    expect(svc(['pack', 'app', '--key', 'p256.pem', '--out', 'p.swbn'], dir).code).toBe(0);
    const run = svc(['verify', 'p.swbn'], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`signed by ecdsa-p256 key ${id} (the id is derived from it)`);
  });

  it('svc pack warns about a page carrying its own svc-host-origins tag, a leftover of svc dev --app-url, and still signs', () => {
    const dir = fresh();
    const page = join(dir, 'app', 'index.html');
    writeFileSync(
      page,
      readFileSync(page, 'utf8').replace(
        '<head>',
        "<head><meta content='http://127.0.0.1:4310' name=svc-host-origins>",
      ),
    );
    const run = svc(['pack', 'app', '--key', 'key.pem'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `svc pack: warning: index.html carries <meta name="svc-host-origins" content="http://127.0.0.1:4310">: the host writes this tag into each page it serves, so yours ships a development origin in the package; add it only while developing (with Vite, a plugin's transformIndexHtml with apply: 'serve')`,
    );
  });

  it("svc pack warns of a build's compressed copies of its files, which no host serves as their encoding", () => {
    const dir = fresh();
    writeFileSync(join(dir, 'app', 'index.html.gz'), gzipSync('<!doctype html>'));
    writeFileSync(join(dir, 'app', 'index.html.br'), 'x');
    writeFileSync(join(dir, 'app', 'backup.gz'), gzipSync('a gzip of its own'));
    const packed = svc(['pack', 'app', '--key', 'key.pem'], dir);
    expect(packed.code).toBe(0);
    expect(packed.stderr).toMatch(
      /svc pack: warning: the package holds 2 compressed copies of its files \(index\.html\.br, index\.html\.gz, \d+ bytes\): a host serves each as a file of its own/,
    );
  });

  it('svc validate warns, as svc pack does, of a folder holding node_modules/ (the project, not its build)', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'app', 'node_modules', 'left-pad'), { recursive: true });
    writeFileSync(join(dir, 'app', 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;');
    const validated = svc(['validate', 'app'], dir);
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
    expect(validated.stdout + validated.stderr).toContain(
      "the package holds node_modules/ (1 files): this looks like the project's folder, not the app's",
    );
  });

  it("svc validate, pack and verify take a name with [ and ], as Next.js names a dynamic route's code", () => {
    const dir = fresh();
    mkdirSync(join(dir, 'app', 'chunks'));
    writeFileSync(join(dir, 'app', 'chunks', '[...slug]-77aa.js'), 'export {};');
    expect(svc(['validate', 'app'], dir).code).toBe(0);
    expect(svc(['pack', 'app', '--key', 'key.pem', '--out', 'x.swbn'], dir).code).toBe(0);
    const verified = svc(['verify', 'x.swbn'], dir);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain('chunks/[...slug]-77aa.js');
  });

  it('svc pack warns that WebAssembly in the package cannot run, and svc validate refuses wasm-unsafe-eval saying why', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'app', 'assets'));
    for (const name of ['engine.wasm', 'codec.wasm'])
      writeFileSync(join(dir, 'app', 'assets', name), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
    const run = svc(['pack', 'app', '--key', 'key.pem'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "svc pack: warning: the package holds WebAssembly (assets/codec.wasm, assets/engine.wasm), which no mini app can run: its csp's script-src is 'self' only, and 'wasm-unsafe-eval' is refused",
    );
    const manifestPath = join(dir, 'app', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    manifest.csp = manifest.csp.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'");
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const validated = svc(['validate', 'app'], dir);
    expect(validated.code).toBe(1);
    expect(validated.stdout + validated.stderr).toContain(
      "remove 'wasm-unsafe-eval' (all code comes from the signed package; 'wasm-unsafe-eval' would let the app compile WebAssembly fetched from any host it reaches, so a mini app runs no WebAssembly)",
    );
  });

  it('files whose names differ only in case: svc validate and svc pack refuse them, naming each pair, exit 1', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'app', 'Logo.png'), '1');
    writeFileSync(join(dir, 'app', 'logo.png'), '2');
    writeFileSync(join(dir, 'app', 'LOGO.png'), '3');
    mkdirSync(join(dir, 'app', 'Assets'));
    mkdirSync(join(dir, 'app', 'assets'));
    writeFileSync(join(dir, 'app', 'Assets', 'x.js'), '1');
    writeFileSync(join(dir, 'app', 'assets', 'x.js'), '2');
    const pair = (a: string, b: string) =>
      `${a} and ${b} differ only in case: where case is ignored (Windows, macOS) they are one file, so a package cannot hold both; rename one`;
    const validated = svc(['validate', 'app'], dir);
    expect(validated.code).toBe(1);
    for (const out of [validated.stdout + validated.stderr]) {
      expect(out).toContain(pair('Assets/x.js', 'assets/x.js'));
      expect(out).toContain(
        'LOGO.png, Logo.png and logo.png differ only in case: where case is ignored (Windows, macOS) they are one file, so a package cannot hold more than one; rename all but one',
      );
    }
    const packed = svc(['pack', 'app', '--key', 'key.pem'], dir);
    expect(packed.code).toBe(1);
    expect(packed.stderr).toContain(pair('Assets/x.js', 'assets/x.js'));
    expect(packed.stderr).not.toContain('unexpected failure');
    expect(swbnIn(dir)).toEqual([]);
  });

  it('svc pack and svc validate while a build rewrites the folder: a sentence, never a stack trace', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'app', 'locales'));
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, 'app', 'locales', `l${i}.json`), '{}');
    // As a watching build replaces its files: each moved away and back, over and over.
    const churn = spawn('sh', [
      '-c',
      `while :; do for f in '${join(dir, 'app', 'locales')}'/l*.json; do mv "$f" "$f.tmp" 2>/dev/null; mv "$f.tmp" "$f" 2>/dev/null; done; done`,
    ]);
    try {
      for (let i = 0; i < 4; i++)
        for (const args of [
          ['validate', 'app'],
          ['pack', 'app', '--key', 'key.pem', '--out', 'x.swbn'],
        ]) {
          const run = svc(args, dir);
          expect(run.stderr, args[0]).not.toContain('unexpected failure');
          expect([0, 1], `${args[0]}: ${run.stderr}`).toContain(run.code);
          if (run.code === 1 && /disappeared/.test(run.stderr))
            expect(run.stderr).toMatch(
              /disappeared while the folder was read \(is a build writing it\?\); run again once the build has finished/,
            );
        }
    } finally {
      churn.kill();
    }
  });

  it('svc pack warns about a key others can read, and still signs', () => {
    const dir = fresh();
    chmodSync(join(dir, 'key.pem'), 0o644);
    const run = svc(['pack', 'app', '--key', 'key.pem'], dir);
    expect(run.code).toBe(0);
    // The command names the file whole, so it runs as printed from any folder.
    const chmod = `run: chmod 600 ${join(dir, 'key.pem')}\n`;
    expect(run.stderr).toContain(`key.pem can be read by other users (mode 644); ${chmod}`);
    // svc init names the option with the file: the command names the file alone (it said chmod 600 --key key.pem).
    const init = svc(['init', 'other', '--key', 'key.pem', '--name', 'Other'], dir);
    expect(init.code).toBe(0);
    expect(init.stderr).toContain(`--key key.pem can be read by other users (mode 644); ${chmod}`);
  });

  it('svc pack reads a key through a pipe (process substitution), and refuses a device or an oversized file with exit 2', () => {
    const dir = fresh();
    // `svc pack app --key <(cat key.pem)`: the shell hands over a pipe, as a secret store's command does.
    const piped = spawnSync(
      'bash',
      ['-c', `'${process.execPath}' '${join(root, 'dist/cli.js')}' pack app --key <(cat key.pem) --out piped.swbn`],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, SVC_STATE_DIR: join(dir, 'state'), NO_COLOR: '1' },
        timeout: 60_000,
      },
    );
    expect(piped.status).toBe(0);
    expect(piped.stderr).not.toContain('cannot be read');
    expect(svc(['verify', 'piped.swbn'], dir).code).toBe(0);
    writeFileSync(join(dir, 'big.pem'), Buffer.alloc(70_000, 'A'));
    for (const [given, problem] of [
      // Shown whole: it is outside the working folder.
      ['/dev/zero', '/dev/zero cannot be read (not a regular file)'],
      ['big.pem', 'big.pem cannot be read (more than 65536 bytes)'],
      ['nope.pem', 'nope.pem does not exist'],
    ]) {
      const run = svc(['pack', 'app', '--key', given!], dir);
      expect([run.code, run.stderr]).toEqual([
        2,
        `svc pack: ${problem}; pass the private key file \`svc keygen\` wrote\nsvc pack: nothing written.\n`,
      ]);
    }
    const trusted = svc(['verify', 'piped.swbn', '--trust', '/dev/zero'], dir);
    expect([trusted.code, trusted.stderr.split('\n')[0]]).toEqual([
      2,
      'svc verify: --trust /dev/zero cannot be read (not a regular file); pass a public key file (PEM)',
    ]);
  });

  it('svc keygen never overwrites a key, nor writes one into a git work tree by default', () => {
    const dir = fresh();
    const before = readFileSync(join(dir, 'key.pem'));
    const again = svc(['keygen', '--out', 'key.pem'], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists; a key is never overwritten');
    expect(readFileSync(join(dir, 'key.pem')).equals(before)).toBe(true);
    // A folder that a file stands in the way of is said so, not a crash.
    const underFile = svc(['keygen', '--out', 'key.pem/k.pem'], dir);
    expect([underFile.code, underFile.stderr]).toEqual([
      2,
      `svc keygen: ${join(dir, 'key.pem/k.pem')} cannot be written (ENOTDIR: a part of its folder is a file, not a folder): choose another --out\n`,
    ]);
    // The default folder out of reach (a CI job's home): exit 2, as for any output that cannot be written, with the
    // two ways out.
    const noHome = runner(join(root, 'dist/cli.js'), join(dir, 'key.pem', 'state'))(['keygen'], dir);
    expect(noHome.code).toBe(2);
    expect(noHome.stderr).toMatch(
      /cannot be written \(ENOTDIR: a part of its folder is a file, not a folder\): pass --out <file>, or set SVC_STATE_DIR to a folder you can write to\n$/,
    );
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const inRepo = runner(join(root, 'dist/cli.js'), join(dir, 'state'))(['keygen'], dir);
    expect(inRepo.code).toBe(1);
    expect(inRepo.stderr).toContain(`is inside the git work tree ${dir}`);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });
});
