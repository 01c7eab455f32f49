import { CHECK } from './checkCommand';
import { commandLine } from './commandLine';
import { DEV } from './devCommand';
import { INIT } from './initCommand';
import { KEYGEN } from './keygenCommand';
import { MCP } from './mcpCommand';
import { PACK } from './packCommand';
import { PUBLISH } from './publishCommand';
import { TRIGGER } from './triggerCommand';
import { TYPES } from './typesCommand';
import { VALIDATE } from './validateCommand';
import { VERIFY } from './verifyCommand';

/** Every command, in the main help's order. */
export const COMMANDS = [VALIDATE, CHECK, TYPES, INIT, KEYGEN, PACK, VERIFY, DEV, PUBLISH, TRIGGER, MCP];

/**
 * Runs the whole `svc` command line and returns its exit code: svc-sdk-dev's bin (`svc-sdk-dev`), and what svc-sdk's
 * light bin hands the dev commands to (the `svc-sdk-dev/cli` export).
 *
 * @example
 * ```ts
 * const code = await runCli(['validate', 'manifest.json'], { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
 * ```
 * @internal
 */
export const runCli = commandLine(COMMANDS);
