import { runCli } from './runCli';

// The bin entry (tsup adds the shebang): all logic lives in runCli so tests can run it in-process.
process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
