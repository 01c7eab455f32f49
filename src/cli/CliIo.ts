/**
 * Where a CLI command reads and writes: injected so commands run in-process in tests.
 * @public
 */
export interface CliIo {
  /** Directory that relative paths are resolved against. */
  cwd: string;
  /** Results: issues, summaries, JSON. */
  stdout: { write(chunk: string): unknown };
  /** Usage errors and files that cannot be read. */
  stderr: { write(chunk: string): unknown };
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

/**
 * The signals a long-running command (`svc dev`, `svc mcp`) stops cleanly on, closing what it serves and removing its
 * discovery files: Ctrl-C, a service manager's stop, and the terminal closed (SIGHUP), whose default ends Node at
 * once.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const satisfies readonly NodeJS.Signals[];

/** Writes one line. */
export function writeLine(stream: { write(chunk: string): unknown }, line = ''): void {
  stream.write(`${line}\n`);
}

/** `1 error`, `2 warnings`. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
