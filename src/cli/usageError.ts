import { type CliIo, EXIT, writeLine } from './CliIo';

/** Reports a usage error on stderr with a pointer to the command's help, and returns exit code 2. */
export function usageError(io: CliIo, command: string | null, message: string): number {
  const name = command ? `svc ${command}` : 'svc';
  writeLine(io.stderr, `${name}: ${message}`);
  writeLine(io.stderr, `Run \`${name} --help\` for usage.`);
  return EXIT.usage;
}

/** Runs `run` and returns its result, or the error it threw (argument parsing, which throws on a bad flag). */
export function attempt<T>(run: () => T): T | Error {
  try {
    return run();
  } catch (cause) {
    return cause instanceof Error ? cause : new Error(String(cause));
  }
}
