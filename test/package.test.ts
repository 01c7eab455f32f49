import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it, onTestFinished } from 'vitest';
import { writeAppDir } from './dev/appDir';
import { FIRST_LINE, spawnProgram } from './helpers/spawnProgram';
import { validManifest } from './manifest/fixtures';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const devRoot = `${root}packages/svc-sdk-dev`;
const built = existsSync(`${root}dist/index.js`);
const devBuilt = built && existsSync(`${devRoot}/dist/run-cli.js`);
/** A temporary folder, removed when the test ends, holding both packages' tarballs (`<name>-<version>.tgz`). */
function packedInto(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const folder of [root, devRoot])
    execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir, folder], { cwd: dir });
  return dir;
}
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

  it('leaves npm nothing to correct in either package.json (npm publish applies what npm pkg fix does)', () => {
    for (const file of [`${root}package.json`, `${devRoot}/package.json`]) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-pkg-fix-'));
      try {
        writeFileSync(join(dir, 'package.json'), readFileSync(file));
        execFileSync('npm', ['pkg', 'fix'], { cwd: dir, stdio: 'ignore' });
        // npm wrote the file back as it would publish it; its bins, for one, lose a leading './'.
        expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')), file).toEqual(
          JSON.parse(readFileSync(file, 'utf8')),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
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

  it('ships the server API contract, the signing and token vectors as JSON exports, and the Python example, in the packed files', () => {
    const loaded = node(`
      const { createRequire } = await import('node:module');
      const require = createRequire(import.meta.url);
      const contract = require('svc-sdk/server-api.openapi.json');
      const vectors = require('svc-sdk/signing-vectors.json');
      const tokens = require('svc-sdk/token-vectors.json');
      console.log(JSON.stringify([contract.openapi, Object.keys(contract.webhooks).length, vectors.vectors.length > 0,
        tokens.vectors.length > 0, tokens.jwks.keys.every((key) => !('d' in key))]));`);
    expect(JSON.parse(loaded)).toEqual(['3.1.0', 6, true, true, true]);
    const packed: string[] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
    )[0].files.map((f: { path: string }) => f.path);
    expect(packed).toEqual(
      expect.arrayContaining([
        'schema/server-api.openapi.json',
        'schema/signing-vectors.json',
        'schema/token-vectors.json',
      ]),
    );
    // The recipe for a backend in another language, which README.md and docs/backend.md link to, and nothing else
    // of examples/ (no tests, no caches).
    const tracked = execFileSync('git', ['ls-files', 'examples/backend-python'], { cwd: root, encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(packed.filter((path) => path.startsWith('examples/')).sort()).toEqual(tracked.sort());
    // Every guide the README links to, and the messages name (docs/dev.md's limits, docs/ship.md), is installed too.
    const linked = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/\((docs\/[\w-]+\.md)/g)].map(
      (m) => m[1],
    );
    expect(linked.length).toBeGreaterThan(5);
    expect(packed).toEqual(expect.arrayContaining([...new Set([...linked, 'docs/dev.md', 'docs/ship.md'])]));
  });

  it.runIf(devBuilt)(
    'svc-sdk and svc-sdk-dev each import, once built, only the packages they declare as dependencies',
    async () => {
      for (const folder of [root, `${devRoot}/`]) {
        const json = JSON.parse(readFileSync(`${folder}package.json`, 'utf8'));
        const declared = new Set([json.name, ...Object.keys(json.dependencies ?? {})]);
        // esbuild reads each built file's imports, require() calls included (text that only looks like one is not).
        const files = readdirSync(`${folder}dist`).filter((f) => /\.c?js$/.test(f));
        const { metafile } = await build({
          entryPoints: Object.fromEntries(files.map((f) => [f.replace('.', '-'), `${folder}dist/${f}`])),
          bundle: true,
          write: false,
          outdir: join(tmpdir(), 'svc-imports'),
          platform: 'node',
          format: 'esm',
          packages: 'external',
          logLevel: 'silent',
          metafile: true,
        });
        const imported = new Set<string>();
        for (const input of Object.values(metafile.inputs))
          for (const { path, external } of input.imports) {
            const name = path
              .split('/')
              .slice(0, path.startsWith('@') ? 2 : 1)
              .join('/');
            if (external && !path.startsWith('node:') && !builtinModules.includes(name)) imported.add(name);
          }
        // svc-sdk's bin loads svc-sdk-dev when it is installed, and says what to install when it is not.
        if (json.name === 'svc-sdk') imported.delete('svc-sdk-dev');
        expect(
          [...imported].filter((name) => !declared.has(name)),
          json.name,
        ).toEqual([]);
      }
    },
  );

  it.runIf(devBuilt)('ends every built file with one source-map comment, naming a map that leads to src/', () => {
    // svc-sdk's bin ships no maps (scripts/dropMaps.mjs): without the sources' text they named only files no
    // install has. Nor does svc-sdk's CommonJS build, the same code as its ESM build, whose entries keep theirs.
    const binFiles = new Set<string>();
    for (const folder of [`${root}dist`, `${devRoot}/dist`]) {
      for (const file of readdirSync(folder).filter((f) => /\.c?js$/.test(f))) {
        const lines = readFileSync(join(folder, file), 'utf8').trimEnd().split('\n');
        const comments = lines.filter((line) => line.startsWith('//# sourceMappingURL='));
        if (folder === `${root}dist` && comments.length === 0 && !existsSync(join(folder, `${file}.map`))) {
          if (!file.endsWith('.cjs')) binFiles.add(file);
          continue;
        }
        expect(file.endsWith('.cjs') && folder === `${root}dist`, `${file} keeps a map`).toBe(false);
        expect(comments, file).toEqual([`//# sourceMappingURL=${file}.map`]);
        expect(lines.at(-1), file).toBe(comments[0]);
        const map = JSON.parse(readFileSync(join(folder, `${file}.map`), 'utf8'));
        // Ours lead to src/; a bundled dependency's own maps may name sources its package does not ship.
        const ours = map.sources.filter((source: string) => !source.includes('node_modules/'));
        expect(
          ours.filter((source: string) => !existsSync(join(folder, source))),
          file,
        ).toEqual([]);
        // The maps shipped carry their sources' text (a file that only re-exports has none to carry).
        if (map.sources.length > 0) expect(map.sourcesContent, file).toBeDefined();
      }
    }
    expect(binFiles.has('cli.js')).toBe(true);
    for (const entry of ['index.js', 'server.js', 'host.js', 'mock.js', 'package.js'])
      expect(binFiles.has(entry), entry).toBe(false);
  });

  it.runIf(devBuilt)(
    "ships each package's MIT license, and the notice and license text of every package its built files carry",
    () => {
      for (const folder of [root, `${devRoot}/`]) {
        const packed: string[] = JSON.parse(
          execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: folder, encoding: 'utf8' }),
        )[0].files.map((f: { path: string }) => f.path);
        expect(packed).toEqual(expect.arrayContaining(['LICENSE', 'dist/THIRD-PARTY-NOTICES.md']));
        expect(readFileSync(`${folder}LICENSE`, 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 /);
        expect(JSON.parse(readFileSync(`${folder}package.json`, 'utf8')).license).toBe('MIT');

        const notices = readFileSync(`${folder}dist/THIRD-PARTY-NOTICES.md`, 'utf8');
        const sections = notices.split(/^## /m).slice(1);
        const named = new Map(sections.map((section) => [section.slice(0, section.indexOf(' ')), section]));
        for (const section of sections)
          expect(section, section.split('\n')[0]).toMatch(
            /Permission is hereby granted|Apache License|Redistribution and use|ships no license file\. License: MIT/,
          );
        // Every package a map names is there, or is its own project's unpublished part (same scope).
        for (const mapFile of readdirSync(`${folder}dist`).filter((f) => f.endsWith('.map'))) {
          const { sources } = JSON.parse(readFileSync(`${folder}dist/${mapFile}`, 'utf8'));
          for (const source of sources as string[]) {
            if (!source.includes('node_modules/')) continue;
            const [first = '', second = ''] = source.split('node_modules/').at(-1)!.split('/');
            const name = first.startsWith('@') ? `${first}/${second}` : first;
            const sameScope = first.startsWith('@') && [...named.keys()].some((n) => n.startsWith(`${first}/`));
            expect(named.has(name) || sameScope, `${mapFile}: ${name}`).toBe(true);
          }
        }
        if (folder === root) expect([...named.keys()]).toEqual(['@babel/parser']);
        else {
          expect(named.get('fast-uri')).toContain('(BSD-3-Clause)');
          expect(named.get('@modelcontextprotocol/server')).toContain('(Apache-2.0)');
          expect([...named.keys()]).toEqual(expect.arrayContaining(['hono', '@hono/node-server', 'zod', 'preact']));
        }
      }
    },
  );

  it('leaves the dev tools out of the svc-sdk tarball: no dev platform, messenger page or MCP bridge', () => {
    const packed: string[] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
    )[0].files.map((f: { path: string }) => f.path);
    const built = packed.filter((path) => !path.startsWith('docs/'));
    expect(built.filter((path) => /dev-ui|(^|\/)dev\.|createMcpEndpoint|run-cli/.test(path))).toEqual([]);
    expect(pkg.exports['./dev']).toBeUndefined();
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@cfworker/json-schema', '@noble/hashes', 'jose', 'zod']);
  });

  it.runIf(built)('loads no dependency from the client or svc-sdk/host/core, in ESM and CommonJS', () => {
    // host/core is the host's side without the manifest validator: a zod import anywhere in its chunks put zod's
    // global registry in every host page that bundled it (and needed zod where nothing else did).
    const bare = (entry: string) => {
      const seen = new Set<string>();
      const found: string[] = [];
      const walk = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        const code = readFileSync(join(root, 'dist', file), 'utf8');
        for (const [, spec] of code.matchAll(/(?:from\s*|import\s*\(?|require\()\s*['"]([^'"]+)['"]/g))
          if (spec!.startsWith('./')) walk(spec!.slice(2));
          else found.push(`${file} loads ${spec}`);
      };
      walk(entry);
      return found;
    };
    for (const entry of ['index.js', 'index.cjs', 'host-core.js', 'host-core.cjs'])
      expect(bare(entry), entry).toEqual([]);
    // The validator's entries do load it (svc-sdk/package too: it checks the package's manifest): the walk sees one.
    for (const entry of ['manifest.js', 'package.cjs'])
      expect(bare(entry), entry).toEqual(expect.arrayContaining([expect.stringMatching(/ loads zod$/)]));
  });

  it.runIf(devBuilt)(
    "svc-sdk-dev's declarations type-check in a Node-only project (no DOM library, skipLibCheck off)",
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-dev-types-'));
      // What a backend's tests write: the platform started from TypeScript, with Node's types alone.
      writeFileSync(
        join(dir, 'sample.mts'),
        `import { startDevPlatform, type DevPlatform } from '${devRoot}/dist/index.js';\n` +
          `const p: DevPlatform = await startDevPlatform({ dir: '.', port: 0 });\nawait p.close();\n`,
      );
      const program = ts.createProgram([join(dir, 'sample.mts')], {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2022.d.ts'],
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      // Hono's own declarations need the DOM library's CloseEvent: they were pulled in by the store's routes.
      expect(problems).toEqual([]);
    },
  );

  it.runIf(built)('bundles each entry with esbuild, as an app or a host does, without a warning', async () => {
    const entries = Object.keys(pkg.exports)
      .filter((path) => typeof pkg.exports[path] !== 'string')
      .map((path) => path.replace(/^\./, 'svc-sdk'));
    expect(entries.length).toBeGreaterThan(6);
    for (const entry of entries) {
      const { warnings, errors } = await build({
        stdin: { contents: `import * as entry from '${entry}';\nconsole.log(entry);`, resolveDir: root },
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        logLevel: 'silent',
      });
      // Before, each bare `import './chunk-….js'` of a file drew "Ignoring this import because … was marked as having
      // no side effects".
      expect(
        [...errors, ...warnings].map((m) => m.text),
        entry,
      ).toEqual([]);
    }
  });

  it.runIf(built)(
    'gives a browser bundle one client when the app imports svc-sdk and a CommonJS module of it requires it; require() under the browser condition (Jest with jsdom) loads the CommonJS build',
    async () => {
      // A CommonJS dependency's require() took dist/index.cjs beside the app's dist/index.js: two clients, which take
      // the host's channel from each other, and twice the bytes.
      const dir = mkdtempSync(join(root, 'node_modules/.svc-dual-'));
      try {
        writeFileSync(join(dir, 'lib.cjs'), "const { svc } = require('svc-sdk');\nmodule.exports = () => svc;\n");
        writeFileSync(
          join(dir, 'app.js'),
          "import { svc } from 'svc-sdk';\nimport lib from './lib.cjs';\nglobalThis.same = lib() === svc;\n",
        );
        const { metafile } = await build({
          entryPoints: [join(dir, 'app.js')],
          bundle: true,
          write: false,
          format: 'esm',
          platform: 'browser',
          metafile: true,
          logLevel: 'silent',
        });
        const client = Object.keys(metafile.inputs).filter((input) => /dist\/index\.c?js$/.test(input));
        expect(client).toEqual([expect.stringMatching(/dist\/index\.js$/)]);
        // By the `module` condition, which bundlers read and Node and Jest do not: Jest's jsdom environment resolves
        // with the `browser` condition, and require() of the ESM build failed there ("Unexpected token 'export'").
        // (Node 20 itself can require() an ES module; Jest's module system cannot, so what is checked is the file.)
        const jsdomLike = spawnSync(
          process.execPath,
          [
            '--conditions=browser',
            '-e',
            "console.log(JSON.stringify(['svc-sdk', 'svc-sdk/global'].map((e) => require.resolve(e))))",
          ],
          { cwd: root, encoding: 'utf8' },
        );
        expect(jsdomLike.stderr).toBe('');
        expect(JSON.parse(jsdomLike.stdout)).toEqual([
          expect.stringMatching(/dist\/index\.cjs$/),
          expect.stringMatching(/dist\/global\.cjs$/),
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

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

  it.runIf(devBuilt)(
    'installs from its packed tarball under engine-strict on this Node, and its CLI parses an app there (svc check with svc-sdk-dev, which it names when missing)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-install-'));
      try {
        const npm = (args: string[], cwd: string) => {
          const run = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 120_000 });
          return { code: run.status, output: `${run.stdout}${run.stderr}` };
        };
        for (const folder of [root, devRoot]) {
          const pack = npm(['pack', '--silent', '--ignore-scripts', '--pack-destination', dir, folder], dir);
          expect(pack.code, pack.output).toBe(0);
        }
        const app = join(dir, 'app');
        mkdirSync(join(app, 'src'), { recursive: true });
        writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
        // engine-strict turns any dependency that does not support this Node into a failed install.
        const install = (name: string, into = app) => {
          const tarball = join(dir, `${name}-${pkg.version}.tgz`);
          const flags = ['--engine-strict', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'];
          const run = npm(['install', ...flags, tarball], into);
          expect(run.code, run.output).toBe(0);
          expect(run.output).not.toContain('EBADENGINE');
        };
        const bin = join(app, 'node_modules/.bin/svc');
        const svc = (command: string, ...args: string[]) =>
          spawnSync(bin, [command, ...args], { cwd: app, encoding: 'utf8' });
        install(pkg.name);

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
        // svc-sdk alone: validate runs; check is svc-sdk-dev's, and the bin says how to get it, without a stack.
        const alone = svc('validate');
        expect(alone.status, `svc validate: ${alone.stdout}${alone.stderr}`).toBe(0);
        const missing = svc('check');
        expect(missing.status).toBe(2);
        expect(missing.stderr).toContain(`npm install --save-dev svc-sdk-dev@${pkg.version}`);
        expect(missing.stderr).toContain(`npx svc-sdk-dev@${pkg.version} check`);
        expect(missing.stderr).not.toMatch(/^\s+at /m);
        // svc-sdk installed elsewhere (npx, as an agent's MCP configuration runs it) finds the svc-sdk-dev of the
        // project whose folder the command names.
        const project = join(dir, 'project');
        mkdirSync(join(project, 'src'), { recursive: true });
        writeFileSync(
          join(project, 'package.json'),
          JSON.stringify({ name: 'project', private: true, type: 'module' }),
        );
        for (const file of ['manifest.json', 'src/main.ts'])
          writeFileSync(join(project, file), readFileSync(join(app, file)));
        install('svc-sdk-dev', project);
        const named = svc('check', project);
        expect(named.status, `svc check ${project}: ${named.stdout}${named.stderr}`).toBe(0);
        install('svc-sdk-dev');
        for (const command of ['validate', 'check']) {
          const run = svc(command);
          expect(run.status, `svc ${command}: ${run.stdout}${run.stderr}`).toBe(0);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it.runIf(devBuilt)(
    'serves a CommonJS backend from its packed tarballs: every entry loads by require() and verifies a token, and TypeScript 5.7 and 6.0 find the types under every module resolution',
    () => {
      const dir = packedInto('svc-cjs-');
      const app = join(dir, 'backend');
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'backend', private: true, type: 'commonjs' }));
      const tarballs = ['svc-sdk', 'svc-sdk-dev'].map((name) => join(dir, `${name}-${pkg.version}.tgz`));
      const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'];
      // TypeScript 5.7 beside them, the oldest the declarations support (below): fetched from the registry unless npm's
      // cache has it, so bounded (a stalled fetch retries for many minutes, and a synchronous call cannot be timed out
      // by the test's own limit).
      execFileSync('npm', ['install', ...flags, ...tarballs, 'typescript@5.7.3'], { cwd: app, timeout: 180_000 });
      const typescript57: typeof ts = createRequire(join(app, 'package.json'))('typescript');

      // Every entry by require(), and a real token verified through the CommonJS build (jose, which it requires, is
      // published as an ES module only: Node loads it by require() from 20.19 and 22.12, the releases engines names).
      const loaded = spawnSync(
        process.execPath,
        [
          '--input-type=commonjs',
          '-e',
          `const entries = ['svc-sdk', 'svc-sdk/global', 'svc-sdk/host', 'svc-sdk/host/core', 'svc-sdk/mock',
            'svc-sdk/manifest', 'svc-sdk/package', 'svc-sdk/server', 'svc-sdk-dev'];
          for (const entry of entries) require(entry);
          const { createTokenVerifier } = require('svc-sdk/server');
          const { subtle } = globalThis.crypto;
          (async () => {
            const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
            const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
            const now = Math.floor(Date.now() / 1000);
            const sign = async (aud) => {
              const input = part({ alg: 'ES256', typ: 'JWT' }) + '.' + part({ iss: 'http://idp/realms/acme', sub: 'u1', aud, exp: now + 60 });
              const signature = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, Buffer.from(input));
              return input + '.' + Buffer.from(signature).toString('base64url');
            };
            const verifier = createTokenVerifier({ authUrl: 'http://idp', realm: 'acme', audience: 'polls', keys: async () => pair.publicKey });
            const { sub } = await verifier.verify(await sign('polls'));
            const refused = await verifier.verify(await sign('other')).catch((e) => e.reason);
            console.log(JSON.stringify([entries.length, sub, refused]));
          })();`,
        ],
        { cwd: app, encoding: 'utf8' },
      );
      expect(loaded.stderr).toBe('');
      expect(JSON.parse(loaded.stdout)).toEqual([9, 'u1', 'wrong-audience']);

      // The same imports, type-checked with the declarations of both packages checked too (no skipLibCheck).
      const source = `import { svc, isSvcError } from 'svc-sdk';
        import { createTokenVerifier, type TokenKeyResolver, type VerifiedToken } from 'svc-sdk/server';
        import { createMockHost } from 'svc-sdk/mock';
        import { validateManifest } from 'svc-sdk/manifest';
        import { createHost } from 'svc-sdk/host';
        import { startDevPlatform } from 'svc-sdk-dev';
        declare const keys: TokenKeyResolver;
        export async function check(token: string): Promise<[unknown, boolean, number | undefined, string | undefined]> {
          const verified: VerifiedToken = await createTokenVerifier({ authUrl: 'http://idp', realm: 'acme', audience: 'polls', keys }).verify(token);
          void [createMockHost, validateManifest, createHost, startDevPlatform];
          return [await svc.room.current(), isSvcError(verified), verified.claims.exp, verified.claims.act?.sub];
        }`;
      // TypeScript 6.0 (what this repository builds with) and 5.7, the oldest the declarations support: it is the first
      // with typed arrays generic over their buffer (`Uint8Array<ArrayBuffer>`), which Web Crypto's types need.
      for (const compiler of [ts, typescript57]) {
        const typeErrors = (file: string, options: ts.CompilerOptions, text = source) => {
          writeFileSync(join(app, file), text);
          const program = compiler.createProgram([join(app, file)], {
            target: compiler.ScriptTarget.ES2022,
            lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
            ...options,
            typeRoots: [join(root, 'node_modules/@types')],
            types: ['node'],
            strict: true,
            noEmit: true,
            // What `tsc --init` writes, and TypeScript 6 always does: zod's declarations need it.
            esModuleInterop: true,
            ...(compiler.version.startsWith('5.') ? {} : { ignoreDeprecations: '6.0' }),
          });
          return compiler
            .getPreEmitDiagnostics(program)
            .map(
              (d) =>
                `TypeScript ${compiler.version}, ${d.file?.fileName.replace(app, '')}: ${compiler.flattenDiagnosticMessageText(d.messageText, ' ')}`,
            );
        };
        const { ModuleKind: Module, ModuleResolutionKind: Resolution } = compiler;
        const node16 = { module: Module.Node16, moduleResolution: Resolution.Node16 };
        const nodeNext = { module: Module.NodeNext, moduleResolution: Resolution.NodeNext };
        const bundler = { module: Module.ESNext, moduleResolution: Resolution.Bundler };
        // node10, the resolution of TypeScript 5's `"module": "commonjs"`, reads no exports map: typesVersions.
        const node10 = { module: Module.CommonJS, moduleResolution: Resolution.Node10 };
        expect(typeErrors('node16.ts', node16)).toEqual([]);
        expect(typeErrors('node16.mts', node16)).toEqual([]);
        expect(typeErrors('nodenext.ts', nodeNext)).toEqual([]);
        expect(typeErrors('bundler.ts', bundler)).toEqual([]);
        expect(typeErrors('node10.ts', node10)).toEqual([]);
        // The published contract as JSON modules, by the exports map or by typesVersions.
        const json = `import contract from 'svc-sdk/server-api.openapi.json';
          import vectors from 'svc-sdk/signing-vectors.json';
          import tokens from 'svc-sdk/token-vectors.json';
          import schema from 'svc-sdk/manifest.schema.json';
          export const read: [string, number, number, string] =
            [contract.openapi, vectors.vectors.length, tokens.vectors.length, schema.$schema];`;
        const jsonModules = { resolveJsonModule: true };
        expect(typeErrors('json-node10.ts', { ...node10, ...jsonModules }, json)).toEqual([]);
        expect(typeErrors('json-bundler.ts', { ...bundler, ...jsonModules }, json)).toEqual([]);
        // jose's key sets are key resolvers as the verifier types them.
        const withJose = `import { createLocalJWKSet, createRemoteJWKSet } from 'jose';
          import { createTokenVerifier } from 'svc-sdk/server';
          const options = { authUrl: 'http://idp', realm: 'acme', audience: 'polls' };
          createTokenVerifier({ ...options, keys: createLocalJWKSet({ keys: [] }) });
          createTokenVerifier({ ...options, keys: createRemoteJWKSet(new URL('http://idp/certs')) });`;
        expect(typeErrors('jose.mts', nodeNext, withJose)).toEqual([]);
        // A backend compiled with Node's types alone, without the DOM library, and a host's server that verifies
        // packages there. (Not svc-sdk-dev: hono's declarations, which its platform's types name, need the DOM
        // library's. Nor svc-sdk/host: a web host's frames are the DOM's.)
        const backend = `import { createServerClient, createTokenVerifier, requireToken, verifySignature } from 'svc-sdk/server';
          import { derivePackageId, verifyPackage } from 'svc-sdk/package';
          import { validateManifest } from 'svc-sdk/manifest';
          import { createMockHost } from 'svc-sdk/mock';
          import { webcrypto } from 'node:crypto';
          export async function keyId(): Promise<string> {
            const pair = await webcrypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
            return derivePackageId((pair as webcrypto.CryptoKeyPair).publicKey);
          }
          export const used = [createServerClient, createTokenVerifier, requireToken, verifySignature, verifyPackage, validateManifest, createMockHost];`;
        expect(typeErrors('backend.ts', { ...nodeNext, lib: ['lib.es2022.d.ts'] }, backend)).toEqual([]);
        // backend.md's node:http lines, in a project with the strictest flags: Node's IncomingMessage types its method
        // `string | undefined`, which an optional property refused under exactOptionalPropertyTypes.
        const nodeHttp = `import { createServer } from 'node:http';
          import { createWebhookHandler, createTokenVerifier, requireToken } from 'svc-sdk/server';
          const webhooks = createWebhookHandler({ secrets: ['s'], on: {} });
          createServer((req, res) => void webhooks.node(req, res));
          const guard = requireToken(createTokenVerifier({ authUrl: 'http://idp', realm: 'acme', audience: 'polls' }));
          createServer((req, res) => void guard(req, res, () => res.end('ok')));`;
        const strictest = {
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          verbatimModuleSyntax: true,
        };
        expect(typeErrors('http.mts', { ...nodeNext, ...strictest, lib: ['lib.es2022.d.ts'] }, nodeHttp)).toEqual([]);
      }
    },
    // An npm install and type checks under two TypeScript versions: 70-100 s on CI's two cores, 128 s once when the
    // machine was busy, so the bound is a hang's, not a speed goal.
    300_000,
  );

  it.runIf(devBuilt)(
    'run through npx in a folder with no project (npx svc-sdk dev .), svc dev fetches svc-sdk-dev the same way and runs it; Ctrl-C stops both',
    async () => {
      const dir = packedInto('svc-npx-');
      // Where npx installs what it runs: a `_npx` folder of npm's cache.
      const npxDir = join(dir, 'npm-cache', '_npx', '0123abcd');
      mkdirSync(npxDir, { recursive: true });
      writeFileSync(join(npxDir, 'package.json'), '{}');
      const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'];
      execFileSync('npm', ['install', ...flags, join(dir, `svc-sdk-${pkg.version}.tgz`)], {
        cwd: npxDir,
        timeout: 180_000,
      });
      const app = await writeAppDir();
      const dev = spawnProgram(
        'node',
        [join(npxDir, 'node_modules/svc-sdk/dist/cli.js'), 'dev', '.', '--port', '0', '--no-mcp'],
        {
          cwd: app,
          env: {
            ...process.env,
            // The released svc-sdk-dev of the same version, as a tarball: this machine has no registry to fetch it from.
            SVC_SDK_DEV_SPEC: join(dir, `svc-sdk-dev-${pkg.version}.tgz`),
            npm_config_prefer_offline: 'true',
            SVC_STATE_DIR: join(dir, 'home'),
          },
        },
      );
      await dev.waitFor(FIRST_LINE, 100_000);
      expect(dev.stderr).toContain(
        `running ${join(dir, `svc-sdk-dev-${pkg.version}.tgz`)} (the dev tools) through npx`,
      );
      const url = new URL(dev.stdout.trim());
      expect((await fetch(url)).status).toBe(200);
      expect(await dev.stop('SIGINT')).toBe(0);
      await expect(fetch(url)).rejects.toThrow();
    },
    150_000,
  );
});
