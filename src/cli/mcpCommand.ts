import { basename, dirname, resolve } from 'node:path';
import { DevAppError, readAppDir } from '../dev';
import { readBoundKey } from '../dev/platform/stateFile';
import { openAppPackage } from '../dev/platform/store/openAppPackage';
import { readDiscovery } from '../dev/mcp/discoveryFile';
import { toolsFromManifest } from '../dev/mcp/toolsFromManifest';
import { EXIT, STOP_SIGNALS, writeLine } from './CliIo';
import { defineCommand } from './defineCommand';
import { locateApp } from './locateApp';
import { usageError } from './usageError';
import { shownPath } from './shownPath';
import { shellPath } from './shellPath';

/** Options only a test passes: how the stdio server learns to stop (default: its input ends). */
export interface McpCommandHooks {
  stopped?: Promise<unknown>;
}

/**
 * `svc mcp [dir]`: the stdio form of the MCP tools of the `svc dev` running for `dir` (found through the discovery
 * file it wrote; served from the manifest until one runs); `svc mcp export [dir]`: prints the `tools/list` result of
 * `<dir>/manifest.json` as JSON, no platform needed. Exit 1 when the manifest is invalid, 2 for a usage error.
 * @public
 */
export const MCP = defineCommand({
  name: 'mcp',
  usage: ['[dir | file.swbn [--state <file>]]', 'export [dir]'],
  synopsis: 'mcp [dir | file.swbn [--state <file>]] | mcp export [dir]',
  summary: `The app's actions as MCP tools over stdio (their calls run in svc dev), or as JSON.`,
  description: `svc mcp [dir] serves the MCP tools of the svc dev running for <dir> (default .; the folder of its manifest,
found as svc check finds it: <dir>/manifest.json, else <dir>/public/manifest.json, or the file named) over stdio,
for MCP clients that cannot reach a local HTTP server (Claude Desktop). Start npx svc-sdk dev <dir> and keep its
messenger page open: the calls run there, and the person confirms them there. Started before svc dev, it lists the
manifest's tools and answers a call with an error that says to start svc dev, until svc dev runs. The agent id is
the client's name. Given a signed package (file.swbn), the tools are the package's, for the svc dev running it
(svc dev file.swbn prints this configuration, with the --state it runs with: after a key rotation, the package's
new key is trusted as that store's record binds it).

svc mcp export [dir] prints the tools/list result of <dir>/manifest.json as JSON (no svc dev needed).

Claude Desktop (claude_desktop_config.json):
  { "mcpServers": { "svc-my-app": { "command": "npx", "args": ["svc-sdk", "mcp", "/path/to/app"] } } }`,
  options: {
    state: {
      type: 'string',
      value: 'file',
      help: `For a package: the --state file of the svc dev running it, whose store's record says which key its id is bound to after a rotation (read, never written).`,
    },
  },
  footer: `Exit codes: 0 stopped, 1 the manifest or package is invalid, 2 usage error, or a manifest, package or --state
file that is missing or cannot be read.
`,
  async run({ positionals, values }, io, hooks: McpCommandHooks = {}) {
    const exporting = positionals[0] === 'export';
    const folders = exporting ? positionals.slice(1) : positionals;
    if (folders.length > 1) return usageError(io, 'mcp', `one app folder at most; got ${folders.join(', ')}`);
    const given = folders[0] ?? '.';
    const packaged = given.endsWith('.swbn');
    if (values.state !== undefined && !packaged)
      return usageError(io, 'mcp', `--state is for a package (file.swbn); ${given} is an app folder`);
    const statePath = values.state === undefined ? undefined : resolve(io.cwd, values.state);
    const found = packaged ? await packageApp(resolve(io.cwd, given), statePath) : await folderApp(given, io);
    if ('problem' in found) {
      writeLine(io.stderr, `svc mcp: ${found.problem}`);
      return found.unreadable ? EXIT.usage : EXIT.invalid;
    }
    const { dir, named, start, app } = found;
    if (exporting) {
      writeLine(io.stdout, JSON.stringify(toolsFromManifest(app.manifest), null, 2));
      return EXIT.ok;
    }
    const target = await readDiscovery(dir);
    // stdout carries the protocol: everything for people goes to stderr. A client that starts its servers at launch
    // (Claude Desktop) may start this one before svc dev: it is served from the manifest until svc dev runs.
    writeLine(
      io.stderr,
      target
        ? `svc mcp: serving the tools of ${app.manifest.name} from ${target.url} over stdio.`
        : `svc mcp: no svc dev runs for ${dir} yet; serving the tools of ${app.manifest.name} from its manifest ` +
            `over stdio. Their calls run once svc dev runs: start it (${start}) and keep its messenger page open.`,
    );
    // The manifest as it is now, for the tools served while no svc dev runs: one made invalid mid-edit keeps the
    // last valid one, as svc dev does.
    let manifest = app.manifest;
    const current = async () => {
      // A package's manifest is the one it was signed with.
      if (packaged) return manifest;
      manifest = await readAppDir(dir).then(
        (read) => read.manifest,
        () => manifest,
      );
      return manifest;
    };
    // The MCP SDK is loaded when the bridge runs, not when any other command of the CLI starts.
    const { serveMcpStdio } = await import('../dev/mcp/serveMcpStdio');
    const handle = serveMcpStdio({
      discover: () => readDiscovery(dir),
      found: target,
      manifest: current,
      dir: named,
      start,
      version: app.manifest.version,
      log: (line) => writeLine(io.stderr, line),
    });
    await (hooks.stopped ??
      new Promise<void>((done) => {
        // The listeners go once one fires: a signal while the bridge closes then stops the process as usual.
        const stop = () => {
          process.stdin.off('end', stop).off('close', stop);
          for (const signal of STOP_SIGNALS) process.off(signal, stop);
          done();
        };
        process.stdin.once('end', stop).once('close', stop);
        for (const signal of STOP_SIGNALS) process.once(signal, stop);
      }));
    await handle.close();
    return EXIT.ok;
  },
});

/**
 * The app of a folder, found as svc check finds the manifest (the folder, its public/, or the file named): the folder
 * svc dev serves, and how to start svc dev for it.
 */
async function folderApp(given: string, io: { cwd: string }) {
  const show = (path: string) => shownPath(io.cwd, path);
  const located = await locateApp(resolve(io.cwd, given), show);
  if (!located.ok) return { problem: located.message, unreadable: true };
  // Another file is neither the folder nor its manifest (svc dev and svc pack say so too).
  if (basename(located.manifestFile) !== 'manifest.json' && !given.endsWith('.json'))
    return {
      problem: `${show(located.manifestFile)} is a file: pass the app's folder, its manifest.json, or its package (file.swbn)`,
      unreadable: true,
    };
  const dir = dirname(located.manifestFile);
  const named = dir === resolve(io.cwd, given) ? given : show(dir);
  // A manifest in a project's public/ is served by the project's own dev script (Vite beside svc dev).
  const start =
    located.projectDir === dir
      ? `npx svc-sdk dev ${shellPath(named)}`
      : `the project's dev script, such as npm run dev, which runs svc dev for ${named}`;
  try {
    return { dir, named, start, app: await readAppDir(dir) };
  } catch (error) {
    return problemOf(error);
  }
}

/**
 * The app of a signed package (`svc dev app.swbn` prints a Claude Desktop configuration that starts `svc mcp
 * app.swbn`): its manifest once the package verifies, and the folder svc dev, run for the package, is found by. With
 * svc dev's `--state` file, the key its store bound the id to is trusted, as svc dev trusts it.
 */
async function packageApp(file: string, statePath: string | undefined) {
  try {
    const opened = await openAppPackage(file);
    // A state file that is not this app's is said as a package's refusal is.
    const bound = statePath ? await readBoundKey(statePath, opened.id).catch((error: Error) => error) : undefined;
    // Any refusal of the state file is said as a package's is (another app's file is invalid input, exit 1).
    if (bound instanceof Error)
      return { problem: bound.message, unreadable: bound instanceof DevAppError && bound.unreadable };
    const app = await opened.verify(bound ? [new Uint8Array(Buffer.from(bound, 'base64'))] : []);
    return {
      dir: app.dir,
      named: file,
      start: `npx svc-sdk dev ${file}${statePath ? ` --state ${statePath}` : ''}`,
      app,
    };
  } catch (error) {
    return problemOf(error);
  }
}

/** A refusal to print: a missing or unreadable manifest or package exits 2, an invalid one 1. */
function problemOf(error: unknown) {
  if (!(error instanceof DevAppError)) throw error;
  return { problem: error.message, unreadable: error.unreadable };
}
