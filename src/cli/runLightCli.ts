import { type CliIo, EXIT, writeLine } from './CliIo';
import { commandLine } from './commandLine';
import { INIT } from './initCommand';
import { KEYGEN } from './keygenCommand';
import { type DevCli, loadDevCli } from './loadDevCli';
import { sdkVersion } from './sdkVersion';
import { TRIGGER } from './triggerCommand';
import { TYPES } from './typesCommand';
import { VALIDATE } from './validateCommand';
import { VERIFY } from './verifyCommand';

/**
 * The commands svc-sdk's own bin runs: those that need no package beyond svc-sdk's dependencies (@babel/parser,
 * which finds where a JSON file breaks, is bundled into the bin). In the main help's order.
 */
const LIGHT_COMMANDS = [VALIDATE, TYPES, INIT, KEYGEN, VERIFY, TRIGGER];

/**
 * The commands svc-sdk-dev runs: the dev platform and the MCP bridge (the MCP SDK), check (@babel/parser over the
 * app's sources, picomatch), pack and publish (wbn, wbn-sign and the platform's store).
 */
export const DEV_PACKAGE_COMMANDS = ['check', 'pack', 'dev', 'publish', 'mcp'] as const;

/** The names of the commands the light bin runs itself. */
export const LIGHT_COMMAND_NAMES = LIGHT_COMMANDS.map((c) => c.name);

const INSTALL = 'npm install --save-dev svc-sdk-dev';
const runLight = commandLine(
  LIGHT_COMMANDS,
  `\nWith svc-sdk-dev installed beside svc-sdk (\`${INSTALL}\`): ${DEV_PACKAGE_COMMANDS.join(', ')}.\n`,
);
const isDevCommand = (name: string | undefined) => DEV_PACKAGE_COMMANDS.some((c) => c === name);

/** An argument as a POSIX shell reads it back: quoted when it holds anything but plain path characters. */
const shellWord = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

/**
 * Runs svc-sdk's `svc` bin and returns its exit code: the light commands here, every other one (and the whole help)
 * by svc-sdk-dev's command line when it is installed. Without it, a dev command says what to install and exits 2.
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
  loadDev: (cwd: string) => Promise<DevCli | undefined> = loadDevCli,
): Promise<number> {
  const [command, ...rest] = argv;
  const asked = command === 'help' ? rest[0] : command;
  if (LIGHT_COMMAND_NAMES.includes(asked ?? '')) return runLight(argv, io);
  let dev: DevCli | undefined;
  try {
    dev = await loadDev(io.cwd);
  } catch (cause) {
    // Installed but broken (a missing dependency of its own, an unbuilt workspace): the reason, not a stack.
    writeLine(io.stderr, `svc: svc-sdk-dev is installed but could not be loaded: ${(cause as Error).message}`);
    writeLine(io.stderr, `Reinstall it beside svc-sdk: ${INSTALL}@${await sdkVersion()}`);
    return EXIT.usage;
  }
  if (dev) return dev.runCli(argv, io);
  if (!isDevCommand(asked)) return runLight(argv, io);
  const version = await sdkVersion();
  const again = (command === 'help' ? [asked!, '--help'] : argv).map(shellWord).join(' ');
  writeLine(io.stderr, `svc ${asked}: this command is in svc-sdk-dev (the dev tools), which is not installed here.`);
  writeLine(io.stderr, `Install it beside svc-sdk:  ${INSTALL}@${version}`);
  writeLine(io.stderr, `or run it once:             npx svc-sdk-dev@${version} ${again}`);
  return EXIT.usage;
}
