/**
 * The commands svc-sdk-dev runs: the dev platform and the MCP bridge (the MCP SDK), check (@babel/parser over the
 * app's sources, picomatch), pack and publish (wbn, wbn-sign and the platform's store).
 */
export const DEV_PACKAGE_COMMANDS = ['check', 'pack', 'dev', 'publish', 'mcp'] as const;

/**
 * The names of the commands svc-sdk's bin runs itself (src/cli/lightCommandLine.ts has them): written out, so a dev
 * command reaches svc-sdk-dev without loading them (the time to `svc dev`'s URL). A test holds the two lists equal.
 */
export const LIGHT_COMMAND_NAMES: readonly string[] = ['validate', 'types', 'init', 'keygen', 'verify', 'trigger'];

/** How to install svc-sdk-dev beside svc-sdk (the version is added where it is known). */
export const DEV_PACKAGE_INSTALL = 'npm install --save-dev svc-sdk-dev';
