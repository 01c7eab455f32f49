import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunCommandLine } from './commandLine';

/** What svc-sdk-dev's `svc-sdk-dev/cli` export offers the light bin: the whole command line. */
export interface DevCli {
  runCli: RunCommandLine;
}

// A variable, so neither the bundler nor the type checker follows it: svc-sdk must build and type-check without
// svc-sdk-dev, which is built after it and is optional where svc-sdk is installed.
const DEV_CLI = 'svc-sdk-dev/cli';

/** Node's error for a package that is not installed where it was looked for (not one of its own imports failing). */
const notInstalled = (cause: unknown) =>
  (cause as NodeJS.ErrnoException)?.code === 'ERR_MODULE_NOT_FOUND' &&
  String((cause as Error).message).includes(`'svc-sdk-dev'`);

/**
 * Loads svc-sdk-dev's command line: beside this svc-sdk first (a project that installs both), then from the projects
 * holding `dirs` (the working directory, and the folders the command names: svc-sdk installed globally or run by npx,
 * as an agent's MCP configuration does, and svc-sdk-dev in the app's project). Resolves to undefined when none has
 * it; rejects when it is installed but fails to load (the message then names what failed).
 */
export async function loadDevCli(dirs: readonly string[]): Promise<DevCli | undefined> {
  const loaded = await import(DEV_CLI).catch((cause: unknown) => {
    if (notInstalled(cause)) return undefined;
    throw cause;
  });
  if (loaded) return checked(loaded);
  for (const dir of dirs) {
    let path: string;
    try {
      path = createRequire(join(dir, 'package.json')).resolve(DEV_CLI);
    } catch {
      continue;
    }
    return checked(await import(pathToFileURL(path).href));
  }
  return undefined;
}

function checked(module: Partial<DevCli>): DevCli {
  if (typeof module.runCli !== 'function') throw new Error('its svc-sdk-dev/cli export has no runCli');
  return module as DevCli;
}
