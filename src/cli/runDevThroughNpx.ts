import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type CliIo, STOP_SIGNALS, writeLine } from './CliIo';

/**
 * Whether this svc-sdk runs from npx's cache (`npx svc-sdk dev .` in a folder whose project does not list it): npm
 * installs what npx runs under a `_npx` folder of its cache.
 */
export const ranByNpx = (moduleUrl: string = import.meta.url) =>
  /[\\/]_npx[\\/]/.test(moduleUrl.startsWith('file:') ? fileURLToPath(moduleUrl) : moduleUrl);

/**
 * Runs a dev command the way the person ran svc-sdk, through npx: `npm exec --yes --package=<spec> -- svc-sdk-dev
 * <argv>`, the spec being svc-sdk-dev at svc-sdk's own version (or `SVC_SDK_DEV_SPEC`, any spec npm accepts, such
 * as a tarball). Its output goes to `io`, stdin is shared (`svc mcp` speaks MCP over it), Ctrl-C, SIGTERM and SIGHUP
 * reach it, and it resolves with its exit code.
 */
export function runDevThroughNpx(argv: readonly string[], version: string, io: CliIo): Promise<number> {
  const spec = process.env.SVC_SDK_DEV_SPEC || `svc-sdk-dev@${version}`;
  writeLine(io.stderr, `svc ${argv[0]}: running ${spec} (the dev tools) through npx, as svc-sdk was run.`);
  // In a process group of its own, which gets a Ctrl-C from here, as a terminal sends it to a group: npm, the shell
  // it runs the bin in and the bin itself each get it once (npm does not pass it on).
  const child = spawn('npm', ['exec', '--yes', `--package=${spec}`, '--', 'svc-sdk-dev', ...argv], {
    cwd: io.cwd,
    stdio: ['inherit', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.on('data', (chunk: Buffer) => io.stdout.write(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => io.stderr.write(chunk.toString()));
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, signal);
  };
  // A group of its own is not one of the shell's jobs: a closed terminal's SIGHUP reaches it only from here.
  const forwards = STOP_SIGNALS.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, onSignal] of forwards) process.on(signal, onSignal);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      writeLine(io.stderr, `svc ${argv[0]}: could not run npm to fetch ${spec}: ${error.message}`);
      resolve(2);
    });
    child.once('close', (code, signal) => {
      for (const [name, onSignal] of forwards) process.off(name, onSignal);
      // Ended by the signal we forwarded: the same clean exit svc dev gives Ctrl-C.
      resolve(code ?? (STOP_SIGNALS.some((stop) => stop === signal) ? 0 : 1));
    });
  });
}
