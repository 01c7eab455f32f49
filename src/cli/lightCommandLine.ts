import { commandLine } from './commandLine';
import { DEV_PACKAGE_COMMANDS, DEV_PACKAGE_INSTALL } from './devPackageCommands';
import { INIT } from './initCommand';
import { KEYGEN } from './keygenCommand';
import { TRIGGER } from './triggerCommand';
import { TYPES } from './typesCommand';
import { VALIDATE } from './validateCommand';
import { VERIFY } from './verifyCommand';

/**
 * The commands svc-sdk's own bin runs: those that need no package beyond svc-sdk's dependencies (@babel/parser,
 * which finds where a JSON file breaks, is bundled into the bin). In the main help's order.
 */
export const LIGHT_COMMANDS = [VALIDATE, TYPES, INIT, KEYGEN, VERIFY, TRIGGER];

/**
 * svc-sdk's command line without svc-sdk-dev: the light commands, and a main help that names the others with the
 * package they need.
 */
export const runLightCommandLine = commandLine(
  LIGHT_COMMANDS,
  `\nWith svc-sdk-dev installed beside svc-sdk (\`${DEV_PACKAGE_INSTALL}\`): ${DEV_PACKAGE_COMMANDS.join(', ')}.\n`,
);
