/**
 * Keeps a command running when its output cannot be written:
 * - the reader went away (`svc dev 2>&1 | head -1`, a log pipe that closed): a write to a closed pipe fails with EPIPE,
 *   which Node throws when nothing listens for it, so `svc dev` ended on its next line without closing its platform
 *   (its `--state` lock and discovery files were left behind). Output is best effort then, and the exit code the
 *   command's own;
 * - the output could not be written (`> /dev/full`, a disk error): not thrown either (a stack trace, and exit 1, which
 *   says "invalid"), but said on standard error as the process exits, with exit code 2: a report nobody received is
 *   no success. Node reports such a write's failure after the command has returned, so it is looked at on exit.
 */
export function guardOutput(): void {
  let failure: string | undefined;
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') return;
      failure ??= `${stream === process.stdout ? 'standard output' : 'standard error'} (${error.code ?? error.message})`;
    });
  process.once('exit', () => {
    if (!failure) return;
    process.exitCode = 2;
    try {
      process.stderr.write(`svc: its output could not be written: ${failure}\n`);
    } catch {
      // Standard error is what failed: the exit code says it.
    }
  });
}
