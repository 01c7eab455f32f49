// A fresh app from the packed tarball, following the README alone, as a new user would. Not part of npm test: it
// installs from the registry and takes minutes. `node scripts/fresh-app.mjs [--keep]`; exits non-zero when a step
// fails, naming it. Steps: npm pack (svc-sdk and svc-sdk-dev); a new project with the README's install lines (svc-sdk
// and svc-sdk-dev, Vite, Vitest with
// jsdom, Jest with @swc/jest and jsdom, TypeScript); the README's first mini app and its manifest; `svc validate`,
// `svc check`, `svc types`, `tsc --noEmit`; one test file with createMockHost run by Vitest and by Jest with the
// README's configurations; `vite build`; `svc-sdk dev` printing its URL. Then the starter: `svc init --template
// vite` from the tarball, its `npm install`, `npm test`, `npm run build`, and `npm run dev` printing one URL where
// the app works (Chromium opens it, launches the app and posts a hello card through the backend). `--pm pnpm` or
// `--pm yarn` runs the starter's part with pnpm 10 or Yarn 4 (Plug'n'Play, its default) instead of npm, each fetched
// through npx.
import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## A first mini app'));
const block = (lang, n = 0) => [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))][n]?.[1];
const testing = readFileSync(join(root, 'docs/testing.md'), 'utf8');
const config = testing.slice(testing.indexOf('### Jest and Vitest configuration'));
const dir = mkdtempSync(join(tmpdir(), 'svc-fresh-'));
// `svc init` writes the app's key under $SVC_STATE_DIR: this run's own folder, not the real home.
process.env.SVC_STATE_DIR = join(dir, '.svc-sdk');
const results = [];
const pm = process.argv.includes('--pm') ? process.argv[process.argv.indexOf('--pm') + 1] : 'npm';
/** How the starter's package manager is run: `<bin> install`, `<bin> test`, `<bin> run <script>`. */
const managers = {
  npm: 'npm',
  pnpm: 'npx -y pnpm@10',
  yarn: 'npx -y -p @yarnpkg/cli-dist@4 yarn',
};
const manager = managers[pm];
if (!manager) throw new Error(`--pm ${pm}: write npm, pnpm or yarn`);

function step(name, command) {
  process.stdout.write(`-- ${name}: ${command}\n`);
  try {
    execSync(command, { cwd: dir, stdio: 'pipe', encoding: 'utf8', timeout: 600_000 });
    results.push([name, 'ok']);
  } catch (error) {
    results.push([name, 'FAILED']);
    console.error(`${error.stdout ?? ''}${error.stderr ?? ''}`.slice(-3000));
  }
}

execSync('npm run build --silent -- --silent', { cwd: root, stdio: 'inherit' });
const packed = (folder) =>
  join(root, execSync(`npm pack --silent ${folder}`, { cwd: root, encoding: 'utf8' }).trim().split('\n').at(-1));
const tarball = packed('.');
// './': npm reads a bare 'packages/svc-sdk-dev' as a GitHub repository's shorthand.
const devTarball = packed('./packages/svc-sdk-dev');
writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }, null, 2));
step(
  'install',
  `npm install --no-audit --no-fund ${tarball} ${devTarball} vite vitest jsdom jest jest-environment-jsdom @swc/core @swc/jest typescript`,
);
execSync('mkdir -p src test', { cwd: dir });
writeFileSync(join(dir, 'src/main.ts'), block('ts'));
writeFileSync(join(dir, 'manifest.json'), block('json'));
writeFileSync(
  join(dir, 'index.html'),
  '<!doctype html><html><head><meta charset="utf-8"></head><body><h1></h1><script type="module" src="/src/main.ts"></script></body></html>',
);
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      strict: true,
      resolveJsonModule: true,
      lib: ['es2022', 'dom'],
      types: [],
      skipLibCheck: true,
      noEmit: true,
    },
    include: ['src'],
  }),
);
writeFileSync(join(dir, 'jest.config.cjs'), /```js\n([\s\S]*?)```/.exec(config)[1]);
writeFileSync(join(dir, 'vitest.config.ts'), /```ts\n([\s\S]*?)```/.exec(config)[1]);
writeFileSync(
  join(dir, 'test/app.test.ts'),
  `import { createMockHost } from 'svc-sdk/mock';
import manifest from '../manifest.json';

test('the app asks for the room at the moment of use', async () => {
  const host = createMockHost({ manifest, answers: { permission: () => 'granted' } });
  expect(await host.svc.permissions.request('room.context')).toBe('granted');
  host.svc.actions.handle('create_poll', () => ({ poll_id: 'p1' }));
  expect(await host.invokeAction('create_poll', { question: 'Lunch?', options: ['a', 'b'] })).toEqual({ poll_id: 'p1' });
  host.close();
});
`,
);
step('svc validate', 'npx svc validate');
step('svc check', 'npx svc check');
step('svc types', 'npx svc types');
step('tsc --noEmit', 'npx tsc --noEmit -p .');
step('vitest (jsdom)', 'npx vitest run');
step('jest (@swc/jest, jsdom)', 'npx jest');
step('vite build', 'npx vite build');
// svc-sdk dev: starts, prints one URL, stops on SIGINT.
await new Promise((done) => {
  const child = spawn('npx', ['svc-sdk', 'dev', '.', '--port', '0'], { cwd: dir });
  let out = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdout.on('data', (d) => {
    out += d;
    if (out.includes('\n')) child.kill('SIGINT');
  });
  child.on('exit', () => {
    clearTimeout(timer);
    results.push(['svc-sdk dev', /^http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(out) ? 'ok' : 'FAILED']);
    done();
  });
});
// The starter, from the same tarball.
const starter = join(dir, 'starter');
step('svc init --template vite', 'npx svc init starter --template vite --name Starter');
const inStarter = (name, command) => {
  process.stdout.write(`-- starter: ${name}: ${command}\n`);
  try {
    execSync(command, { cwd: starter, stdio: 'pipe', encoding: 'utf8', timeout: 600_000 });
    results.push([`starter: ${name}`, 'ok']);
  } catch (error) {
    results.push([`starter: ${name}`, 'FAILED']);
    console.error(`${error.stdout ?? ''}${error.stderr ?? ''}`.slice(-3000));
  }
};
// The starter's dependencies on svc-sdk and svc-sdk-dev point at the tarballs, for every package manager alike.
const starterJson = JSON.parse(readFileSync(join(starter, 'package.json'), 'utf8'));
starterJson.dependencies['svc-sdk'] = `file:${tarball}`;
starterJson.devDependencies['svc-sdk-dev'] = `file:${devTarball}`;
writeFileSync(join(starter, 'package.json'), JSON.stringify(starterJson, null, 2));
// A lock file of its own: Yarn then treats the starter as a project, not as a folder of the one above it.
if (pm === 'yarn') writeFileSync(join(starter, 'yarn.lock'), '');
inStarter(`${pm} install`, pm === 'npm' ? 'npm install --no-audit --no-fund' : `${manager} install`);
rmSync(tarball);
rmSync(devTarball);
inStarter(`${pm} test`, `${manager} test`);
inStarter(`${pm} run build`, `${manager} run build`);
await new Promise((done) => {
  // Quiet, so that the URL is the first line: npm and pnpm print the script's name otherwise.
  const quiet = { npm: 'npm run dev --silent', pnpm: `${manager} --silent run dev`, yarn: `${manager} run dev` }[pm];
  const child = spawn('sh', ['-c', quiet], {
    cwd: starter,
    detached: true,
  });
  let out = '';
  let err = '';
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {}
  };
  const timer = setTimeout(stop, 90_000);
  child.stderr.on('data', (d) => (err += d));
  child.stdout.on('data', async (d) => {
    out += d;
    if (!out.includes('\n') || out.includes('checked')) return;
    out += 'checked';
    const lines = out.replace('checked', '').trim().split('\n');
    let ok = lines.length === 1 && /^http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(lines[0]);
    if (ok) {
      // The app works there: launched in the messenger, it asks for the room and the backend posts the card.
      const { chromium } = await import('@playwright/test');
      const { CHROMIUM_ARGS } = await import('./chromiumArgs.mjs');
      const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
        args: CHROMIUM_ARGS,
      });
      try {
        const page = await browser.newPage();
        await page.goto(lines[0]);
        await page.getByTestId('open-app').click();
        await page.frameLocator('[data-testid=app-frame]').locator('#say-hello').click();
        await page.getByTestId('permission-allow').click();
        await page.getByTestId('card').filter({ hasText: 'Hello!' }).waitFor({ timeout: 15_000 });
      } catch (error) {
        ok = false;
        console.error(`starter: the app did not work at ${lines[0]}: ${error.message}\n${err.slice(-2000)}`);
      }
      await browser.close();
    }
    results.push([`starter: ${pm} run dev (one URL, the app posts a card)`, ok ? 'ok' : 'FAILED']);
    stop();
  });
  child.on('exit', () => {
    clearTimeout(timer);
    if (!out.includes('checked')) results.push([`starter: ${pm} run dev (one URL, the app posts a card)`, 'FAILED']);
    done();
  });
});
for (const [name, result] of results) console.log(`${result.padEnd(6)} ${name}`);
if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${dir}`);
process.exit(results.some(([, r]) => r !== 'ok') ? 1 : 0);
