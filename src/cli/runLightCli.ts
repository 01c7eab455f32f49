import { resolve } from 'node:path';
import { type CliIo, EXIT, writeLine } from './CliIo';
import { DEV_PACKAGE_COMMANDS, DEV_PACKAGE_INSTALL, LIGHT_COMMAND_NAMES } from './devPackageCommands';
import { type DevCli, loadDevCli } from './loadDevCli';
import { ranByNpx, runDevThroughNpx } from './runDevThroughNpx';
import { sdkVersion } from './sdkVersion';
import { shellWord } from './shellWord';

/** The light command line, loaded only when it runs. */
const runLight = async (argv: string[], io: CliIo) =>
  (await import('./lightCommandLine')).runLightCommandLine(argv, io);
const isDevCommand = (name: string | undefined) => DEV_PACKAGE_COMMANDS.some((c) => c === name);

/**
 * Runs svc-sdk's `svc` bin and returns its exit code: the light commands here, every other one (and the whole help)
 * by svc-sdk-dev's command line when it is installed. Without it, a dev command run through npx fetches svc-sdk-dev
 * at the same version through npx too; one run from a project says what to install and exits 2.
 *
 * @example
 * ```ts
 * const code = await runLightCli(['dev', '.'], { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
 * ```
 * @internal
 */
export async function runLightCli(
  argv: string[],
  io: CliIo,
  loadDev: (dirs: readonly string[]) => Promise<DevCli | undefined> = loadDevCli,
): Promise<number> {
  const [command, ...rest] = argv;
  const asked = command === 'help' ? rest[0] : command;
  if (LIGHT_COMMAND_NAMES.includes(asked ?? '')) return runLight(argv, io);
  let dev: DevCli | undefined;
  try {
    // The arguments that are not options may name the app's folder, whose project may hold svc-sdk-dev.
    const named = rest.filter((arg) => !arg.startsWith('-')).map((arg) => resolve(io.cwd, arg));
    dev = await loadDev([io.cwd, ...named]);
  } catch (cause) {
    // Installed but broken (a missing dependency of its own, an unbuilt workspace): the reason, not a stack.
    writeLine(io.stderr, `svc: svc-sdk-dev is installed but could not be loaded: ${(cause as Error).message}`);
    writeLine(io.stderr, `Reinstall it beside svc-sdk: ${DEV_PACKAGE_INSTALL}@${await sdkVersion()}`);
    return EXIT.usage;
  }
  if (dev) return dev.runCli(argv, io);
  if (!isDevCommand(asked)) return runLight(argv, io);
  const version = await sdkVersion();
  // Run through npx in a folder whose project lists neither: fetching the dev tools the same way is what was asked.
  if (ranByNpx()) return runDevThroughNpx(argv, version, io);
  const again = (command === 'help' ? [asked!, '--help'] : argv).map(shellWord).join(' ');
  writeLine(io.stderr, `svc ${asked}: this command is in svc-sdk-dev (the dev tools), which is not installed here.`);
  writeLine(io.stderr, `Install it beside svc-sdk:  ${DEV_PACKAGE_INSTALL}@${version}`);
  writeLine(io.stderr, `or run it once:             npx svc-sdk-dev@${version} ${again}`);
  return EXIT.usage;
}
