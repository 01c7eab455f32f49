// One way for the tests to start a program that prints where it listens (the built `svc` bin, `npm start`, the
// starter's `npm run dev`) and to wait for what it prints: event-driven (each chunk of output is checked as it
// arrives), bounded (a program that never prints it fails the test with its stderr), and stopped when the test ends
// even when an assertion failed first.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { onTestFinished } from 'vitest';

/** The built CLI (`npm run build`). */
export const CLI = resolve(import.meta.dirname, '../../dist/cli.js');

/** What a test waits for: a pattern on stdout, one on stderr, or a check over both. */
export type Awaited = RegExp | { stderr: RegExp } | ((out: { stdout: string; stderr: string }) => boolean);

/** The first line a program prints on stdout: where `svc dev` and `npm start` print the messenger's URL. */
export const FIRST_LINE = /^(.*)\n/;

/** A started program and its output so far. */
export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once `what` shows in the output: the pattern's match, or true for a check. */
  waitFor(what: Awaited, timeoutMs?: number): Promise<RegExpExecArray | true>;
  /** Sends `signal` (SIGINT by default) and resolves with the exit code (null when ended by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns `command` with `args` (this Node when `command` is `node`), collecting its output; the program is killed
 * when the current test finishes if it still runs.
 */
export function spawnProgram(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Spawned {
  const child = spawn(command === 'node' ? process.execPath : command, args, { ...options, stdio: 'pipe' });
  const out = { stdout: '', stderr: '' };
  const checks = new Set<() => void>();
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const recheck = () => {
    for (const check of checks) check();
  };
  child.stdout.on('data', (d) => {
    out.stdout += d;
    recheck();
  });
  child.stderr.on('data', (d) => {
    out.stderr += d;
    recheck();
  });
  child.once('exit', recheck);
  const running = () => child.exitCode === null && child.signalCode === null;
  onTestFinished(() => {
    if (running()) child.kill('SIGKILL');
  });
  const found = (what: Awaited): RegExpExecArray | true | undefined => {
    if (typeof what === 'function') return what(out) || undefined;
    if (what instanceof RegExp) return what.exec(out.stdout) ?? undefined;
    return what.stderr.exec(out.stderr) ?? undefined;
  };
  const name = [command, ...args].join(' ');
  return {
    child,
    get stdout() {
      return out.stdout;
    },
    get stderr() {
      return out.stderr;
    },
    waitFor(what, timeoutMs = 20_000) {
      return new Promise((resolveFound, reject) => {
        const check = () => {
          const match = found(what);
          if (match !== undefined) {
            done();
            resolveFound(match);
          } else if (!running()) {
            done();
            reject(
              new Error(
                `${name} exited (${child.exitCode ?? child.signalCode}) before ${String(what)}; stderr: ${out.stderr}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name} printed no ${String(what)} within ${timeoutMs} ms; stderr: ${out.stderr}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          checks.delete(check);
        };
        checks.add(check);
        check();
      });
    },
    async stop(signal = 'SIGINT') {
      if (running()) child.kill(signal);
      return exited;
    },
  };
}

/** Spawns the built `svc` bin with `args` under this Node. */
export const spawnCli = (args: readonly string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }) =>
  spawnProgram('node', [CLI, ...args], options);
