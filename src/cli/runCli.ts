import { CHECK, checkCommand } from './checkCommand';
import { type CliIo, EXIT } from './CliIo';
import { formatMainHelp } from './defineCommand';
import { DEV, devCommand } from './devCommand';
import { INIT, initCommand } from './initCommand';
import { MCP, mcpCommand } from './mcpCommand';
import { TYPES, typesCommand } from './typesCommand';
import { usageError } from './usageError';
import { VALIDATE, validateCommand } from './validateCommand';

const COMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<number>> = {
  validate: validateCommand,
  check: checkCommand,
  init: initCommand,
  types: typesCommand,
  dev: (argv, io) => devCommand(argv, io),
  mcp: (argv, io) => mcpCommand(argv, io),
};
const MAIN_HELP = formatMainHelp([VALIDATE, CHECK, TYPES, INIT, DEV, MCP]);

/**
 * Runs the `svc` command line and returns its exit code; `dist/cli.js` is a thin wrapper around it.
 *
 * @example
 * ```ts
 * const code = await runCli(['validate', 'manifest.json'], { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
 * ```
 * @public
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.stderr.write(MAIN_HELP);
    return EXIT.usage;
  }
  if (command === '--help' || command === '-h') {
    io.stdout.write(MAIN_HELP);
    return EXIT.ok;
  }
  if (command === 'help')
    return rest[0] && COMMANDS[rest[0]] ? runCli([rest[0], '--help'], io) : runCli(['--help'], io);
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    const near = Object.keys(COMMANDS).find((name) => name.startsWith(command.slice(0, 3)));
    return usageError(
      io,
      null,
      `unknown command "${command}"${near ? `; did you mean \`svc ${near}\`?` : `; the commands are ${Object.keys(COMMANDS).join(', ')}`}`,
    );
  }
  try {
    return await run(rest, io);
  } catch (cause) {
    // An unexpected failure (a bug, a disk error) must still end with a message and a non-zero code.
    io.stderr.write(`svc ${command}: unexpected failure: ${(cause as Error).stack ?? String(cause)}\n`);
    return EXIT.usage;
  }
}
