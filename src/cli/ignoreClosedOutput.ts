/**
 * Keeps a command running when the reader of its output goes away (`svc dev 2>&1 | head -1`, a log pipe that
 * closed): a write to a closed pipe fails with EPIPE, which Node throws when nothing listens for it, so `svc dev`
 * ended on its next line without closing its platform (its `--state` lock and discovery files were left behind). Its
 * output is best effort; any other error of the streams is thrown as before.
 */
export function ignoreClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
}
