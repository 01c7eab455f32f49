// The commands that take an app's folder find its manifest as `svc check` does: the folder, the manifest.json named
// in its place, or, at the root of a project laid out as `svc init --template vite` makes it, public/manifest.json.
// Each through the built bin, in the project's folder, as a person types them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validManifest } from '../manifest/fixtures';
import { CLI, FIRST_LINE, spawnCli } from '../helpers/spawnProgram';
import { runSvc, tempProject } from './runInProcess';

const root = resolve(import.meta.dirname, '../..');
const built = existsSync(CLI) && existsSync(join(root, 'packages/svc-sdk-dev/dist/run-cli.js'));
const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A Vite project as the starter lays it out: package.json and src/ at the root, the manifest in public/. */
function viteProject(): string {
  const manifest = validManifest();
  const dir = tempProject({
    'package.json': { name: 'my-app', private: true, type: 'module' },
    'index.html': '<!doctype html><script type="module" src="/src/main.ts"></script>',
    'src/main.ts': "import { svc } from 'svc-sdk';\nsvc.actions.handle('create_order', async () => ({}));\n",
    'public/manifest.json': manifest,
  });
  folders.push(dir);
  return dir;
}

const svc = (args: string[], cwd: string) => {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, SVC_STATE_DIR: join(cwd, '.svc-state') },
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
};

describe.runIf(built)('the app folder, found as svc check finds it', () => {
  it('svc types at the root of a Vite project reads public/manifest.json and writes src/svc-actions.d.ts', () => {
    const dir = viteProject();
    const run = svc(['types'], dir);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('wrote src/svc-actions.d.ts (1 action); include it in your tsconfig.json\n');
    const written = readFileSync(join(dir, 'src/svc-actions.d.ts'), 'utf8');
    expect(written).toContain('from ../public/manifest.json');
    expect(written).toContain('create_order: {');
    // Not beside the manifest: public/ is copied into the package as it is.
    expect(readdirSync(join(dir, 'public'))).toEqual(['manifest.json']);
    // The manifest's file named instead of a folder: the same file.
    rmSync(join(dir, 'src/svc-actions.d.ts'));
    expect(svc(['types', 'public/manifest.json'], dir).code).toBe(0);
    expect(readFileSync(join(dir, 'src/svc-actions.d.ts'), 'utf8')).toBe(written);
  });

  it('svc dev and svc pack at the root of a Vite project say to build it, not to run svc init', () => {
    const dir = viteProject();
    // No manifest there is unreadable input: exit 2, as for svc check and svc validate.
    const dev = svc(['dev', '--port', '0'], dir);
    expect(dev.code).toBe(2);
    expect(dev.stderr).toBe(
      "svc dev: . has no manifest.json: it is public/manifest.json, in the folder your bundler copies into its build; run svc dev on the build (npm run build, then svc dev dist), or on public with your dev server's page (--app-url)\n",
    );
    const pack = svc(['pack'], dir);
    expect(pack.code).toBe(2);
    expect(pack.stderr).toBe(
      'svc pack: . has no manifest.json: it is public/manifest.json, in the folder your bundler copies into its build; build it (npm run build), then svc pack dist\nsvc pack: nothing written.\n',
    );
    expect(readdirSync(dir).filter((name) => name.endsWith('.swbn'))).toEqual([]);
  });

  it('svc mcp at the root of a Vite project reads public/manifest.json, and names the dev script to start', () => {
    const dir = viteProject();
    const exported = svc(['mcp', 'export'], dir);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual(['create_order']);
    // No svc dev runs: the bridge serves the manifest's tools until one does (its stdin ends at once here).
    const stdio = svc(['mcp'], dir);
    expect(stdio.code).toBe(0);
    expect(stdio.stderr).toBe(
      `svc mcp: no svc dev runs for ${join(dir, 'public')} yet; serving the tools of ${JSON.parse(readFileSync(join(dir, 'public/manifest.json'), 'utf8')).name} from its manifest over stdio. Their calls run once svc dev runs: start it (the project's dev script, such as npm run dev, which runs svc dev for public) and keep its messenger page open.\n`,
    );
  });

  it('svc dev serves the folder of the manifest.json it is given, and refuses another file', async () => {
    const dir = tempProject({ 'app/manifest.json': validManifest(), 'app/index.html': '<!doctype html><p>hi' });
    folders.push(dir);
    const dev = spawnCli(['dev', 'app/manifest.json', '--port', '0'], {
      cwd: dir,
      env: { ...process.env, SVC_STATE_DIR: join(dir, '.svc-state') },
    });
    expect(((await dev.waitFor(FIRST_LINE)) as RegExpExecArray)[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    await dev.waitFor({ stderr: /from .*app; package at/ });
    expect(dev.stderr).toContain(`from ${join(dir, 'app')}; package at`);
    expect(await dev.stop()).toBe(0);
    const other = svc(['dev', 'app/index.html', '--port', '0'], dir);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      "svc dev: app/index.html is a file: pass the package's folder, the one that holds its manifest.json\n",
    );
  });
});

// In process, on the source: the refusal comes before anything starts, and the built bin would hand pack and dev to
// whichever svc-sdk-dev node_modules resolves, which need not be this checkout's.
describe('a build folder that is not there', () => {
  it('svc pack dist and svc dev dist before the first build say to build, and svc init only for a folder without a manifest', async () => {
    const dir = viteProject();
    const pack = await runSvc(['pack', 'dist'], dir);
    expect(pack.code).toBe(2);
    expect(pack.stderr).toBe(
      'svc pack: dist does not exist: build the app first (npm run build), or pass the folder that holds manifest.json\nsvc pack: nothing written.\n',
    );
    const dev = await runSvc(['dev', 'dist', '--port', '0'], dir);
    expect(dev.code).toBe(2);
    expect(dev.stderr).toBe(
      'svc dev: dist does not exist: build the app first (npm run build), or pass the folder that holds manifest.json\n',
    );
    // A folder that is there but holds no manifest is not a missing build: svc init makes the manifest.
    mkdirSync(join(dir, 'dist'));
    expect((await runSvc(['pack', 'dist'], dir)).stderr).toBe(
      'svc pack: no manifest.json in dist or dist/public; create one with `svc init`, or pass the folder that holds it\nsvc pack: nothing written.\n',
    );
  });
});

describe("svc pack's file name", () => {
  it('spells Latin letters out, and adds the id where the name has letters of other scripts (recheck47 F3)', async () => {
    const dir = tempProject({});
    const names: string[] = [];
    for (const [folder, name] of [
      ['a', 'Straße Ærø'],
      ['b', 'Опросы Polls'],
      ['c', 'Опросы'],
    ]) {
      expect((await runSvc(['init', folder!, '--name', name!], dir)).code).toBe(0);
      writeFileSync(join(dir, folder!, 'index.html'), '<!doctype html>');
      const id = JSON.parse(readFileSync(join(dir, folder!, 'manifest.json'), 'utf8')).id as string;
      const packed = await runSvc(['pack', folder!], dir);
      expect(packed.code, packed.stderr).toBe(0);
      names.push(/^wrote (\S+) /.exec(packed.stdout)![1]!.replace(id, '<id>').replace(id.slice(0, 8), '<id>'));
    }
    expect(names).toEqual(['strasse-aero-0.1.0.swbn', 'polls-<id>-0.1.0.swbn', '<id>-0.1.0.swbn']);
  });
});
