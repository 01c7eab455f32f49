import { CHECK } from './checkCommand';
import { type CliIo, EXIT } from './CliIo';
import { formatMainHelp } from './defineCommand';
import { DEV } from './devCommand';
import { INIT } from './initCommand';
import { KEYGEN } from './keygenCommand';
import { MCP } from './mcpCommand';
import { PACK } from './packCommand';
import { PUBLISH } from './publishCommand';
import { TRIGGER } from './triggerCommand';
import { TYPES } from './typesCommand';
import { usageError } from './usageError';
import { VALIDATE } from './validateCommand';
import { VERIFY } from './verifyCommand';

// In the main help's order.
const COMMANDS = [VALIDATE, CHECK, TYPES, INIT, KEYGEN, PACK, VERIFY, DEV, PUBLISH, TRIGGER, MCP];
const MAIN_HELP = formatMainHelp(COMMANDS);

/**
 * Runs the `svc` command line and returns its exit code; `dist/cli.js` is a thin wrapper around it.
 *
 * @example
 * ```ts
 * const code = await runCli(['validate', 'manifest.json'], { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
 * ```
 * @internal
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
  const named = (name: string | undefined) => COMMANDS.find((c) => c.name === name);
  if (command === 'help') return runCli(named(rest[0]) ? [rest[0]!, '--help'] : ['--help'], io);
  const found = named(command);
  if (!found) {
    const names = COMMANDS.map((c) => c.name);
    const near = names.find((name) => name.startsWith(command.slice(0, 3)));
    return usageError(
      io,
      null,
      `unknown command "${command}"${near ? `; did you mean \`svc ${near}\`?` : `; the commands are ${names.join(', ')}`}`,
    );
  }
  try {
    return await found.run(rest, io);
  } catch (cause) {
    // An unexpected failure (a bug, a disk error) must still end with a message and a non-zero code.
    io.stderr.write(`svc ${command}: unexpected failure: ${(cause as Error).stack ?? String(cause)}\n`);
    return EXIT.usage;
  }
}
