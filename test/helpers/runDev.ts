// `svc dev` run in-process, as its command runs it from the terminal: its output captured, its URL awaited as it is
// written (no polling), and a stop that resolves with the exit code.
import { DEV } from '../../src/cli/devCommand';
import { captureIo } from '../cli/runInProcess';

/** A running in-process `svc dev`. */
export interface RunningDev {
  out: { stdout: string; stderr: string };
  /** The messenger URL it printed (with the page's launch token). */
  url: URL;
  /** Stops it as Ctrl-C does and resolves with its exit code. */
  stop(): Promise<number>;
}

/**
 * Runs `svc dev <args>` in `cwd` until its URL is printed (rejecting with its stderr when it exits first or prints
 * none within 20 s).
 */
export async function runDev(args: readonly string[], cwd: string): Promise<RunningDev> {
  let printed!: () => void;
  const urlPrinted = new Promise<void>((resolve) => (printed = resolve));
  const { out, io } = captureIo(cwd, () => out.stdout.includes('\n') && printed());
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const running = DEV.run([...args], io, { stopped });
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`svc dev printed no URL within 20 s; stderr: ${out.stderr}`)), 20_000);
    void running.then((code) => reject(new Error(`svc dev exited (${code}) before its URL; stderr: ${out.stderr}`)));
  });
  try {
    await Promise.race([urlPrinted, failed]);
  } finally {
    clearTimeout(timer);
  }
  return {
    out,
    url: new URL(out.stdout.split('\n')[0]!.trim()),
    stop: () => {
      stop();
      return running;
    },
  };
}
