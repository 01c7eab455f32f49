import { runLightCli } from './runLightCli';

// svc-sdk's bin, `svc` and `svc-sdk` (tsup adds the shebang): the light commands, and svc-sdk-dev's for the rest.
// All logic lives in runLightCli so tests can run it in-process.
process.exitCode = await runLightCli(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
