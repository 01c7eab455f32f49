import { type CliIo, EXIT, writeLine } from './CliIo';

// The io of a command run with --json: its usage errors are a JSON report on stdout as well, so a CI step that
// parses stdout reads a refusal rather than nothing.
const jsonReports = new WeakSet<CliIo>();

/** The io of a command run with `--json`: {@link usageError} then writes its report on stdout too. */
export function withJsonReport(io: CliIo): CliIo {
  const own = { ...io };
  jsonReports.add(own);
  return own;
}

/**
 * Reports a usage error on stderr with a pointer to the command's help (and, for a command run with `--json`, as
 * `{ "ok": false, "error": { "code": "usage", "message" } }` on stdout), and returns exit code 2.
 */
export function usageError(io: CliIo, command: string | null, message: string): number {
  const name = command ? `svc ${command}` : 'svc';
  if (jsonReports.has(io))
    writeLine(io.stdout, JSON.stringify({ ok: false, error: { code: 'usage', message } }, null, 2));
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
