import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { validManifest } from './manifest/fixtures';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const built = existsSync(`${root}dist/index.js`);
const node = (code: string, type: 'module' | 'commonjs' = 'module') =>
  execFileSync(process.execPath, [type === 'module' ? '--input-type=module' : '--input-type=commonjs', '-e', code], {
    cwd: root,
    encoding: 'utf8',
  });

describe('the package', () => {
  it('has an exports map with types first in every condition, and no wildcard', () => {
    for (const [path, target] of Object.entries<any>(pkg.exports)) {
      expect(path).not.toContain('*');
      if (typeof target === 'string') continue;
      for (const condition of Object.values<any>(target)) expect(Object.keys(condition)[0], path).toBe('types');
    }
    expect(pkg.sideEffects).toEqual(['./dist/global.js', './dist/global.cjs', './dist/svc.global.js']);
  });

  it.runIf(built)(
    'imports every entry, ESM and CJS, where there is no window, and fails calls with ERR_NO_HOST',
    () => {
      const esm = node(`
      for (const entry of ['svc-sdk', 'svc-sdk/global', 'svc-sdk/host', 'svc-sdk/mock', 'svc-sdk/manifest']) await import(entry);
      const { svc } = await import('svc-sdk');
      const e = await svc.room.current().catch((e) => e);
      console.log(JSON.stringify([typeof window, e.code, globalThis.svc === svc]));`);
      expect(JSON.parse(esm)).toEqual(['undefined', 'ERR_NO_HOST', true]);
      const cjs = node(
        `
      for (const entry of ['svc-sdk', 'svc-sdk/global', 'svc-sdk/host', 'svc-sdk/mock', 'svc-sdk/manifest']) require(entry);
      require('svc-sdk').svc.identity.get().catch((e) => console.log(e.code));`,
        'commonjs',
      );
      expect(cjs.trim()).toBe('ERR_NO_HOST');
    },
  );

  it.runIf(built)(
    'makes instanceof hold for every error of the package across its entries, in ESM and CJS, and across the two',
    async () => {
      // Each entry is its own bundle, and the CJS build is another copy again: the classes differ, the brand is shared.
      const script = (load: string) => `${load}
      const manifest = JSON.parse(require('node:fs').readFileSync('examples/polls/manifest.json', 'utf8'));
      const host = createMockHost({ manifest });
      const unanswered = await host.svc.permissions.request('room.context').catch((e) => e);
      const failed = await host.svc.permissions.request('nope').catch((e) => e);
      const manifestError = (() => { try { assertManifest({}); } catch (e) { return e; } })();
      const signature = await verifySignature({ body: '', headers: {} }, { secrets: 's' }).catch((e) => e);
      const api = new SvcApiError({ status: 429, problem: 'rate-limited', title: 't', detail: 'd', instance: '/v1' });
      console.log(JSON.stringify({
        mock: [unanswered instanceof SvcError, unanswered.code, failed instanceof SvcError, failed.code],
        manifest: manifestError instanceof ManifestError,
        signature: [signature instanceof SvcSignatureError, signature instanceof SvcApiError, signature instanceof SvcError],
        api: [api instanceof SvcApiError, api instanceof Error, api instanceof SvcTokenError],
        plain: [new Error('x') instanceof SvcError, { name: 'SvcError', code: 'X' } instanceof SvcError],
      }));`;
      const expected = {
        mock: [true, 'ERR_MOCK_UNANSWERED', true, 'ERR_INVALID_ARGUMENT'],
        manifest: true,
        signature: [true, false, false],
        api: [true, true, false],
        plain: [false, false],
      };
      const esm = `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
        const { SvcError } = await import('svc-sdk'); const { createMockHost } = await import('svc-sdk/mock');
        const { assertManifest, ManifestError } = await import('svc-sdk/manifest');
        const { verifySignature, SvcSignatureError, SvcApiError, SvcTokenError } = await import('svc-sdk/server');`;
      const cjs = `(async () => { const { SvcError } = require('svc-sdk'); const { createMockHost } = require('svc-sdk/mock');
        const { assertManifest, ManifestError } = require('svc-sdk/manifest');
        const { verifySignature, SvcSignatureError, SvcApiError, SvcTokenError } = require('svc-sdk/server');`;
      expect(JSON.parse(node(script(esm)))).toEqual(expected);
      expect(JSON.parse(node(`${script(cjs)} })();`, 'commonjs'))).toEqual(expected);
      // Made by the CJS copy, checked against the ESM classes.
      const mixed = node(`import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
        const { SvcError } = await import('svc-sdk'); const { ManifestError } = await import('svc-sdk/manifest');
        const { createMockHost } = require('svc-sdk/mock'); const { assertManifest } = require('svc-sdk/manifest');
        const manifest = JSON.parse(require('node:fs').readFileSync('examples/polls/manifest.json', 'utf8'));
        const e = await createMockHost({ manifest }).svc.permissions.request('room.context').catch((e) => e);
        let m; try { assertManifest({}); } catch (x) { m = x; }
        console.log(JSON.stringify([e instanceof SvcError, m instanceof ManifestError]));`);
      expect(JSON.parse(mixed)).toEqual([true, true]);
    },
  );

  it('ships the server API contract and the signing vectors as JSON exports, in the packed files', () => {
    const loaded = node(`
      const { createRequire } = await import('node:module');
      const require = createRequire(import.meta.url);
      const contract = require('svc-sdk/server-api.openapi.json');
      const vectors = require('svc-sdk/signing-vectors.json');
      console.log(JSON.stringify([contract.openapi, Object.keys(contract.webhooks).length, vectors.vectors.length > 0]));`);
    expect(JSON.parse(loaded)).toEqual(['3.1.0', 6, true]);
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
    )[0].files.map((f: { path: string }) => f.path);
    expect(packed).toEqual(expect.arrayContaining(['schema/server-api.openapi.json', 'schema/signing-vectors.json']));
  });

  it.runIf(built)('ships a script-tag build that defines globalThis.svc without touching the page at load', () => {
    const context: any = {};
    runInNewContext(readFileSync(`${root}dist/svc.global.js`, 'utf8'), context);
    expect(typeof context.svc.room.current).toBe('function');
    // svc is the only global it defines (the platform's rule: the only non-standard global a mini app receives).
    expect(Object.keys(context)).toEqual(['svc']);
    expect(context.svc.supports('room.current')).toBe(false);
  });

  it.runIf(built)('ships the native adapter as a script that installs the port only where a bridge exists', () => {
    const none: any = {};
    runInNewContext(readFileSync(`${root}dist/native-adapter.js`, 'utf8'), none);
    expect(none.__svc_port).toBeUndefined();
    const ios: any = { webkit: { messageHandlers: { svc: { postMessage() {} } } }, __svc_secret: 'f'.repeat(64) };
    runInNewContext(readFileSync(`${root}dist/native-adapter.js`, 'utf8'), ios);
    expect(typeof ios.__svc_port.postMessage).toBe('function');
    expect(ios.__svc_secret).toBeUndefined();
  });

  it.runIf(built)(
    'installs from its packed tarball under engine-strict on this Node, and its CLI parses an app there',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-install-'));
      try {
        const npm = (args: string[], cwd: string) => {
          const run = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 120_000 });
          return { code: run.status, output: `${run.stdout}${run.stderr}` };
        };
        const pack = npm(['pack', '--silent', '--ignore-scripts', '--pack-destination', dir, root], dir);
        expect(pack.code, pack.output).toBe(0);
        const tarball = join(dir, `${pkg.name}-${pkg.version}.tgz`);
        const app = join(dir, 'app');
        mkdirSync(join(app, 'src'), { recursive: true });
        writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
        // engine-strict turns any dependency that does not support this Node into a failed install.
        const install = npm(
          ['install', '--engine-strict', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
          app,
        );
        expect(install.code, install.output).toBe(0);
        expect(install.output).not.toContain('EBADENGINE');

        // The installed CLI: `svc validate` (the manifest checks, with a $ref by $anchor) and `svc check` (the parser).
        const manifest = validManifest() as Record<string, any>;
        manifest.actions[0].input_schema = {
          type: 'object',
          properties: { pizza: { $ref: '#pizza' } },
          required: ['pizza'],
          additionalProperties: false,
          $defs: { pizza: { $anchor: 'pizza', enum: ['margherita', 'diavola'] } },
        };
        writeFileSync(join(app, 'manifest.json'), JSON.stringify(manifest, null, 2));
        writeFileSync(
          join(app, 'src/main.ts'),
          "import { svc } from 'svc-sdk';\nsvc.actions.handle('create_order', async (input: { pizza: string }) => input);\n",
        );
        const bin = join(app, 'node_modules/.bin/svc');
        for (const command of ['validate', 'check']) {
          const run = spawnSync(bin, [command], { cwd: app, encoding: 'utf8' });
          expect(run.status, `svc ${command}: ${run.stdout}${run.stderr}`).toBe(0);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
