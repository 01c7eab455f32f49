import { enableCompileCache } from './enableCompileCache';
import { guardOutput } from './guardOutput';
import { unsupportedNodeWarning } from './unsupportedNodeWarning';

// svc-sdk-dev's bin, `svc-sdk-dev` (tsup adds the shebang): every command, for `npx svc-sdk-dev dev .` where svc-sdk
// is not installed. svc-sdk's `svc` reaches the same command line through the `svc-sdk-dev/cli` export. The command
// line loads after the compile cache is on.
enableCompileCache();
guardOutput();
process.stderr.write(unsupportedNodeWarning('svc-sdk-dev') ?? '');
const { runCli } = await import('./runCli');
process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
