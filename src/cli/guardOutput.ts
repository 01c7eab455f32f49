/**
 * Keeps a command running when its output cannot be written:
 * - the reader went away (`svc dev 2>&1 | head -1`, a log pipe that closed): a write to a closed pipe fails with EPIPE,
 *   which Node throws when nothing listens for it, so `svc dev` ended on its next line without closing its platform
 *   (its `--state` lock and discovery files were left behind). Output is best effort then, and the exit code the
 *   command's own;
 * - the output could not be written (`> /dev/full`, a disk error): not thrown either (a stack trace, and exit 1, which
 *   says "invalid"), but said on standard error when it happens, and the process exits with code 2: a report nobody
 *   received is no success. Node reports such a write's failure after the write returned, so the code is set on exit.
 */
export function guardOutput(): void {
  let failure: string | undefined;
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || failure) return;
      failure = `${stream === process.stdout ? 'standard output' : 'standard error'} (${error.code ?? error.message})`;
      // Said at once: a command that keeps running (svc dev, whose URL went to standard output) is not silent.
      if (stream === process.stdout) process.stderr.write(`svc: its output could not be written: ${failure}\n`);
    });
  process.once('exit', () => {
    if (failure) process.exitCode = 2;
  });
}
