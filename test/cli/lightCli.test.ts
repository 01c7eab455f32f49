// svc-sdk's own bin (src/cli/runLightCli.ts): the light commands run without svc-sdk-dev, the others go to it when it
// is installed, and without it a dev command says exactly what to install, with no stack trace.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type DevCli, loadDevCli } from '../../src/cli/loadDevCli';
import { COMMANDS } from '../../src/cli/runCli';
import { DEV_PACKAGE_COMMANDS, LIGHT_COMMAND_NAMES } from '../../src/cli/devPackageCommands';
import { LIGHT_COMMANDS } from '../../src/cli/lightCommandLine';
import { ranByNpx } from '../../src/cli/runDevThroughNpx';
import { runLightCli } from '../../src/cli/runLightCli';
import { sdkVersion } from '../../src/cli/sdkVersion';
import { captureIo, tempProject } from './runInProcess';

/** Runs the light bin in-process with `loadDev` standing for svc-sdk-dev (installed, missing or broken). */
async function runLight(argv: string[], loadDev: () => Promise<DevCli | undefined>) {
  const { out, io } = captureIo(tempProject({}));
  const code = await runLightCli(argv, io, loadDev);
  return { code, ...out };
}
const missing = async () => undefined;
const neverLoaded = async (): Promise<DevCli> => {
  throw new Error('svc-sdk-dev was loaded for a light command');
};

describe("svc-sdk's light bin", () => {
  test('splits the commands in two, light and svc-sdk-dev, with none left out and none in both', () => {
    expect([...LIGHT_COMMAND_NAMES, ...DEV_PACKAGE_COMMANDS].sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    expect(LIGHT_COMMANDS.map((c) => c.name)).toEqual(LIGHT_COMMAND_NAMES);
  });

  test('runs a light command without loading svc-sdk-dev', async () => {
    const run = await runLight(['validate', '--help'], neverLoaded);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: svc validate/);
  });

  test.each([
    [['dev', '.'], 'dev', 'dev .'],
    [['help', 'mcp'], 'mcp', 'mcp --help'],
    [['pack', 'my app', '--out', 'x.swbn'], 'pack', "pack 'my app' --out x.swbn"],
  ])(
    'without svc-sdk-dev, svc %j says what to install and how to run it once, and exits 2',
    async (argv, name, again) => {
      const version = await sdkVersion();
      const run = await runLight(argv, missing);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `svc ${name}: this command is in svc-sdk-dev (the dev tools), which is not installed here.\n` +
          `Install it beside svc-sdk:  npm install --save-dev svc-sdk-dev@${version}\n` +
          `or run it once:             npx svc-sdk-dev@${version} ${again}\n`,
      );
    },
  );

  test('without svc-sdk-dev, the help lists the light commands and names the others with the install', async () => {
    const run = await runLight(['--help'], missing);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: svc <command>/);
    expect(run.stdout).toContain('validate [manifest.json ...]');
    expect(run.stdout).toContain(
      'With svc-sdk-dev installed beside svc-sdk (`npm install --save-dev svc-sdk-dev`): check, pack, dev, publish, mcp.',
    );
  });

  test('hands every other command, and the help, to svc-sdk-dev when it is installed', async () => {
    const seen: string[][] = [];
    const dev: DevCli = {
      runCli: async (argv, io) => {
        seen.push(argv);
        io.stdout.write('from svc-sdk-dev\n');
        return 0;
      },
    };
    for (const argv of [['dev', '.', '--port', '0'], ['--help'], []]) {
      const run = await runLight(argv, async () => dev);
      expect(run).toEqual({ code: 0, stdout: 'from svc-sdk-dev\n', stderr: '' });
    }
    expect(seen).toEqual([['dev', '.', '--port', '0'], ['--help'], []]);
  });

  test('looks for svc-sdk-dev from the working directory and from the folders the command names', async () => {
    let asked: readonly string[] = [];
    const run = await runLightCli(
      ['mcp', '../app', '--port', '0'],
      { cwd: '/work/x', stdout: { write: () => true }, stderr: { write: () => true } },
      async (dirs) => {
        asked = dirs;
        return undefined;
      },
    );
    expect(run).toBe(2);
    expect(asked).toEqual(['/work/x', '/work/app', '/work/x/0']);
  });

  test('an installed svc-sdk-dev that fails to load is named with its reason, without a stack trace', async () => {
    const run = await runLight(['check'], async () => {
      throw new Error("Cannot find package 'hono' imported from /x/node_modules/svc-sdk-dev/dist/run-cli.js");
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "svc: svc-sdk-dev is installed but could not be loaded: Cannot find package 'hono' imported from",
    );
    expect(run.stderr).toContain('npm install --save-dev svc-sdk-dev@');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  test.runIf(existsSync(resolve(import.meta.dirname, '../../packages/svc-sdk-dev/dist/run-cli.js')))(
    "loads the built svc-sdk-dev's command line, which runs every command",
    async () => {
      const dev = await loadDevCli([tempProject({})]);
      const { out, io } = captureIo(tempProject({}));
      const code = await dev!.runCli(['--help'], io);
      expect(code).toBe(0);
      for (const command of COMMANDS) expect(out.stdout).toContain(`  ${command.synopsis}`);
    },
  );
});

describe('svc-sdk run through npx', () => {
  test("is told apart by npx's cache folder, on POSIX and Windows paths", () => {
    expect(ranByNpx('file:///home/ada/.npm/_npx/3e782aa45cb0c0bb/node_modules/svc-sdk/dist/cli.js')).toBe(true);
    expect(ranByNpx('C:\\Users\\ada\\AppData\\Local\\npm-cache\\_npx\\3e78\\node_modules\\svc-sdk\\dist\\cli.js')).toBe(
      true,
    );
    expect(ranByNpx('file:///work/app/node_modules/svc-sdk/dist/cli.js')).toBe(false);
    expect(ranByNpx('file:///work/my_npx_tools/node_modules/svc-sdk/dist/cli.js')).toBe(false);
  });
});
