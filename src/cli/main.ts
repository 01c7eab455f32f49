import { enableCompileCache } from './enableCompileCache';
import { guardOutput } from './guardOutput';
import { unsupportedNodeWarning } from './unsupportedNodeWarning';

// svc-sdk's bin, `svc` and `svc-sdk` (tsup adds the shebang): the light commands, and svc-sdk-dev's for the rest.
// All logic lives in runLightCli so tests can run it in-process; it loads after the compile cache is on.
enableCompileCache();
guardOutput();
process.stderr.write(unsupportedNodeWarning('svc') ?? '');
const { runLightCli } = await import('./runLightCli');
process.exitCode = await runLightCli(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
