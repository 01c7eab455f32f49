import { closestName } from '../manifest/closestName';
import { type CliIo, EXIT } from './CliIo';
import { type Command, formatMainHelp } from './defineCommand';
import { sdkVersion } from './sdkVersion';
import { usageError } from './usageError';

/** Runs a command line: its arguments and where it reads and writes; resolves to the exit code. */
export type RunCommandLine = (argv: string[], io: CliIo) => Promise<number>;

/**
 * A `svc` command line over `commands` (in the main help's order): `--help`, `help <command>`, an unknown command
 * with the nearest name, and an unexpected failure all answered the same way whichever commands it holds.
 * `helpFooter` ends the main help (the light bin names the commands it leaves to svc-sdk-dev there).
 */
export function commandLine(commands: readonly Command<never>[], helpFooter = ''): RunCommandLine {
  const mainHelp = formatMainHelp(commands) + helpFooter;
  const named = (name: string | undefined) => commands.find((c) => c.name === name);
  const run: RunCommandLine = async ([command, ...rest], io) => {
    if (command === undefined) {
      io.stderr.write(mainHelp);
      return EXIT.usage;
    }
    if (command === '--help' || command === '-h') {
      io.stdout.write(mainHelp);
      return EXIT.ok;
    }
    if (command === '--version') {
      io.stdout.write(`${await sdkVersion()}\n`);
      return EXIT.ok;
    }
    if (command === 'help') return run(named(rest[0]) ? [rest[0]!, '--help'] : ['--help'], io);
    const found = named(command);
    if (!found) {
      const names = commands.map((c) => c.name);
      const near = closestName(command, names) ?? names.find((name) => name.startsWith(command.slice(0, 3)));
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
  };
  return run;
}
