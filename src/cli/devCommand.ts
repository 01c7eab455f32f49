import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  APP_OPEN_FRAGMENT,
  DevAppError,
  type DevEvent,
  type DevNotice,
  type DevPlatform,
  type DevPlatformOptions,
  formatDevEvent,
  startDevPlatform,
} from '../dev';
import { type CliIo, EXIT, STOP_SIGNALS, writeLine } from './CliIo';
import { assertFileFree, lockFile } from '../dev/platform/lockFile';
import { defineCommand } from './defineCommand';
import { checkPackable } from './checkPackageFiles';
import { type EnvFileLine, envFileLines } from './envFileLines';
import { locatePackage } from './locateApp';
import { usageError } from './usageError';
import { developerKeyForms } from './developerKeys';
import { httpUrl } from '../dev/httpUrl';
import { printable } from '../manifest/printable';
import { shownPath } from './shownPath';
import { writePrivateFile } from '../dev/writePrivateFile';

/** How long after its start svc dev sums the folder's files against the package limit, in ms. */
const SIZE_CHECK_AFTER_MS = 3000;

/** Options only a test passes: how the command learns to stop (default {@link STOP_SIGNALS}). */
export interface DevCommandHooks {
  stopped?: Promise<unknown>;
}

/** The backend's settings for `platform`, by the environment variable `--backend-env` writes each to. */
export function backendEnv(platform: DevPlatform): Record<string, string> {
  return {
    SVC_API_BASE: platform.baseUrl,
    SVC_AUTH_URL: platform.authUrl,
    SVC_REALM: platform.realm,
    SVC_AUDIENCE: platform.audience,
    SVC_MINI_APP_ID: platform.miniAppId,
    // The version the platform serves: the one its events name (svc trigger sends it too).
    SVC_APP_VERSION: platform.state.version,
    // The app's exact origin: the one a backend lets call it from a browser (requireToken({ origins })).
    ...(platform.appOrigin ? { SVC_APP_ORIGIN: platform.appOrigin } : {}),
    SVC_SIGNING_SECRET: platform.signingSecret,
    // During a rotation's overlap the previous secret still verifies: a backend may accept both.
    ...(platform.signingSecrets[1] ? { SVC_SIGNING_SECRET_PREVIOUS: platform.signingSecrets[1] } : {}),
  };
}

/**
 * Starts the platform on `port`, or on the messenger's default port and the next free ones when none was given; the
 * platform and its port, or the exit code of a refused start, said on stderr.
 */
async function startOnFreePort(
  options: Omit<DevPlatformOptions, 'port'>,
  fixedPort: number | undefined,
  io: CliIo,
): Promise<{ platform: DevPlatform; port: number } | number> {
  let port = fixedPort ?? DEFAULT_DEV_PORT;
  for (;;) {
    try {
      return { platform: await startDevPlatform({ ...options, port }), port };
    } catch (error) {
      if (error instanceof DevAppError) {
        writeLine(io.stderr, `svc dev: ${error.message}`);
        return error.unreadable ? EXIT.usage : EXIT.invalid;
      }
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        const option = (error as { option?: string }).option ?? '--port';
        // The messenger's default port moves on to the next free one; a port you chose does not.
        if (option === '--port' && fixedPort === undefined && port < DEFAULT_DEV_PORT + PORT_TRIES) {
          writeLine(io.stderr, `svc dev: port ${port} is taken; trying ${port + 1}.`);
          port += 1;
          continue;
        }
        const taken = option === '--port' ? port : options.packagePort;
        writeLine(
          io.stderr,
          `svc dev: port ${taken} (${option}) is taken by another program; pass ${option} <another> or ${option} 0 for any free one.`,
        );
        return EXIT.usage;
      }
      if (!(error instanceof TypeError) && (error as Error).message?.startsWith('--state ')) {
        writeLine(io.stderr, `svc dev: ${(error as Error).message}`);
        return EXIT.usage;
      }
      throw error;
    }
  }
}

/**
 * Writes the backend's settings, the signing secret among them: in a file only its owner can read (mode 600, also
 * when the file already existed), never on the terminal.
 */
async function writeBackendEnv(path: string, platform: DevPlatform): Promise<void> {
  const text = Object.entries(backendEnv(platform))
    .map(([k, v]) => `${k}=${v}\n`)
    .join('');
  // A folder that does not exist yet is made, this user's only (the file holds the signing secret); the file is a new
  // one of this user's, mode 600, whatever was there (never another user's file or link, written through).
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writePrivateFile(path, text);
}

/**
 * The settings in an existing env file that svc dev does not write (any name but `SVC_…`; blank lines and comments
 * aside): a project's own `.env` given as `--backend-env` would lose them when svc dev rewrites the file.
 */
function settingsNotOurs(lines: EnvFileLine[]): string[] {
  // A name is shown, never a value: a line that is no `NAME=value` is shown by its number.
  return lines.filter(({ name }) => !name?.startsWith('SVC_')).map(({ name, number }) => name ?? `line ${number}`);
}

/** The messenger's port when none is given: stable across runs, so the app's meta tag stays right. */
export const DEFAULT_DEV_PORT = 4310;
/** Ports tried after the default one, when it is taken. */
const PORT_TRIES = 20;

const isPort = (value: string | undefined) => value === undefined || (/^\d+$/.test(value) && Number(value) < 65536);
/**
 * An `--allow` value as the origin a CSP names (`http://LOCALHOST:3000/` is `http://localhost:3000`), or why it is
 * none: a loopback origin by name or IPv4 (a CSP source cannot name an IPv6 address such as [::1]).
 */
function loopbackOrigin(value: string): { origin: string } | { problem: string } {
  const url = httpUrl(value) ? new URL(value) : undefined;
  if (url?.hostname === '[::1]')
    return {
      problem: `a page's CSP cannot name an IPv6 address: give http://127.0.0.1:${url.port || 80} and have your backend listen there`,
    };
  if (!url || !['127.0.0.1', 'localhost'].includes(url.hostname))
    return { problem: 'give a loopback origin such as http://127.0.0.1:3000' };
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    return { problem: `give an origin alone, scheme, host and port, such as ${url.origin}` };
  return { origin: url.origin };
}

/** How long after it starts a failure of the opener is its own, not that of the browser it may have become. */
const OPEN_FAILS_WITHIN_MS = 5000;

/**
 * Opens a URL in the system browser, best effort: a machine without one (a server, a container) gets a line saying
 * so, since the URL is printed anyway. xdg-open may run the browser in its own process, so only a quick failure is
 * the opener's.
 */
function openBrowser(url: string, io: CliIo): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const started = Date.now();
  const failed = (why: string) =>
    writeLine(io.stderr, `svc dev: --open could not open a browser (${command}: ${why}); open the URL above yourself.`);
  try {
    spawn(command, [url], { stdio: 'ignore', detached: true })
      .on('error', (error: NodeJS.ErrnoException) => failed(error.code ?? error.message))
      .on('exit', (code) => {
        // explorer.exe exits 1 even when it opened the page.
        if (code && process.platform !== 'win32' && Date.now() - started < OPEN_FAILS_WITHIN_MS)
          failed(`exit code ${code}`);
      })
      .unref();
  } catch (error) {
    failed((error as Error).message);
  }
}

/**
 * `svc dev [dir | manifest.json | file.swbn]`: validates `<dir>/manifest.json`, starts the local platform (the
 * simulated messenger, identity provider, server API, webhooks) and the app's package on its own origin, prints the
 * messenger's URL (ending in `#app`: it opens the app at start), and runs until interrupted. Exit 1 for an invalid
 * manifest, 2 for a usage error.
 * @public
 */
export const DEV = defineCommand({
  name: 'dev',
  usage: ['[dir | manifest.json | file.swbn]'],
  summary: `Run the app in a simulated messenger with the whole platform on loopback.`,
  description: `Validates <dir>/manifest.json (default .; or name the file), starts the local platform on 127.0.0.1 (a
simulated messenger, the identity provider, the server API at /v1, signed webhooks, a local store) and serves the
app's package on its own origin with its CSP (http://localhost:<port>, on 127.0.0.1 and ::1); prints the messenger's
URL, which opens the app at start (#app), and runs until Ctrl-C. Given a signed package (file.swbn), it verifies it first (a package that fails a check does not
start) and serves its files only; \`svc publish\` uploads new versions to the local store.`,
  options: {
    port: {
      type: 'string',
      value: 'n',
      help: `Port of the messenger and platform (default 4310, the next free one when taken; 0: any free one).`,
    },
    'package-port': {
      type: 'string',
      value: 'n',
      help: `Port of the app's package origin (default: the one kept in --state, else any free one).`,
    },
    webhooks: {
      type: 'string',
      value: 'url',
      help: `Your backend's webhook URL, e.g. http://localhost:3000/svc/webhooks.`,
    },
    allow: {
      type: 'string',
      multiple: true,
      value: 'origin',
      help: `A loopback backend the app may fetch besides the manifest's network (repeatable).`,
    },
    'app-url': {
      type: 'string',
      value: 'url',
      help: `Load the app from your own dev server (e.g. Vite's http://localhost:5173) instead.`,
    },
    state: {
      type: 'string',
      value: 'file',
      help: `Keep rooms, grants and installations in this file across restarts.`,
    },
    'retry-scale': {
      type: 'string',
      value: 'x',
      help: `Webhook retry delays times x (0.01: a minute of backoff takes under a second).`,
    },
    'backend-env': {
      type: 'string',
      value: 'file',
      help: `Write the backend's settings (the signing secret too) to this file, mode 600;
rewritten on a rotation with SVC_SIGNING_SECRET_PREVIOUS.`,
    },
    reset: { type: 'boolean', help: `Start from a fresh state (deletes the --state file first).` },
    quiet: {
      type: 'boolean',
      short: 'q',
      help: `Do not print one line per event (launches, webhooks, server API calls, blocked requests).`,
    },
    open: { type: 'boolean', help: `Open the URL in the system browser.` },
    'no-mcp': { type: 'boolean', help: `Do not serve the actions as MCP tools at <origin>/mcp.` },
    'agent-id': {
      type: 'string',
      value: 'id',
      help: `The agent id of every MCP call (default the MCP client's name).`,
    },
    elicit: {
      type: 'string',
      value: 'who',
      help: `Who answers the app's elicit during an MCP call: sheet (the person, default) or
agent (MCP form elicitation when the client supports it and the schema is flat).`,
    },
    'mcp-origin': {
      type: 'string',
      multiple: true,
      value: 'origin',
      help: `An exact origin a browser-based MCP client may call /mcp from (repeatable).`,
    },
    // Accepted beside --no-mcp (serving MCP is the default), so not listed.
    mcp: { type: 'boolean' },
  },
  footer: `Exit codes: 0 stopped (Ctrl-C, SIGTERM, SIGHUP: it says which, closes what it serves and removes its lock first), 1 invalid
manifest or package, 2 usage error, a port taken, or a manifest or package that is missing or cannot be read.
A signal in the moment before the command has loaded ends it as Node does (130, 143), before it holds anything.
`,
  oneDirectory: true,
  async run({ values, dir }, io, hooks: DevCommandHooks = {}) {
    for (const flag of ['port', 'package-port'] as const)
      if (!isPort(values[flag])) return usageError(io, 'dev', `--${flag} must be a port number (0 for any free one)`);
    if (values.port !== undefined && values.port === values['package-port'] && Number(values.port) !== 0)
      return usageError(
        io,
        'dev',
        `--port and --package-port are both ${values.port}: the messenger and the app are two origins, on two ports`,
      );
    const allowed: string[] = [];
    for (const value of values.allow ?? []) {
      const read = loopbackOrigin(value);
      if ('problem' in read) return usageError(io, 'dev', `--allow ${value}: ${read.problem}`);
      allowed.push(read.origin);
    }
    const examples = { webhooks: 'http://localhost:3000/svc/webhooks', 'app-url': 'http://localhost:5173' };
    for (const flag of ['webhooks', 'app-url'] as const) {
      const value = values[flag];
      if (value !== undefined && !httpUrl(value)) {
        // The port's limit is said only to a URL whose port is over it, the one mistake it explains.
        const port = /^[a-z]+:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(value)?.[1];
        const why = port !== undefined && Number(port) > 65535 ? ' (a port is at most 65535)' : '';
        return usageError(
          io,
          'dev',
          `--${flag} ${value} is not a whole http(s) URL${why}: write it such as ${examples[flag]}`,
        );
      }
    }
    const elicit = values.elicit;
    if (elicit !== undefined && elicit !== 'sheet' && elicit !== 'agent')
      return usageError(io, 'dev', `--elicit ${elicit}: write sheet (the person answers, default) or agent`);
    const agentId = values['agent-id'];
    if (agentId !== undefined && !/^[\w.:@-]{1,64}$/.test(agentId))
      return usageError(io, 'dev', '--agent-id must be 1 to 64 letters, digits or . _ - : @ (such as claude-code)');
    const badOrigin = (values['mcp-origin'] ?? []).find((o) => !httpUrl(o) || new URL(o).origin !== o);
    if (badOrigin)
      return usageError(io, 'dev', `--mcp-origin ${badOrigin}: give an exact origin such as http://127.0.0.1:6274`);
    const retryScale = values['retry-scale'] === undefined ? undefined : Number(values['retry-scale']);
    if (retryScale !== undefined && !(retryScale > 0))
      return usageError(io, 'dev', '--retry-scale must be a positive number (0.01 makes retries 100 times faster)');

    // A .swbn file is a signed package; anything else is the app's folder, or its manifest.json.
    const packageFile = dir.endsWith('.swbn') ? dir : undefined;
    const located = packageFile ? undefined : await locatePackage(dir, (path) => shownPath(io.cwd, path), 'dev');
    if (located && !located.ok) {
      writeLine(io.stderr, `svc dev: ${located.message}`);
      return EXIT.usage;
    }
    const appDir = located?.dir ?? dir;
    const statePath = values.state === undefined ? undefined : resolve(io.cwd, values.state);
    // --reset sets the state file aside until the platform is up: a start refused (a taken port) keeps the state.
    let setAside: string | undefined;
    if (values.reset && statePath) {
      const inUse = await assertFileFree(statePath, '--state').catch((error: Error) => error);
      if (inUse) {
        writeLine(io.stderr, `svc dev: ${inUse.message}`);
        return EXIT.usage;
      }
      setAside = `${statePath}.${process.pid}.before-reset`;
      await rename(statePath, setAside).catch(() => (setAside = undefined));
    }
    const envFile = values['backend-env'];
    // The env file as this run found it: read once, before svc dev writes it.
    const envLines = envFile ? envFileLines(await readFile(resolve(io.cwd, envFile), 'utf8').catch(() => '')) : [];
    const foreign = settingsNotOurs(envLines);
    if (foreign.length)
      return usageError(
        io,
        'dev',
        `--backend-env ${envFile} holds settings svc dev does not write (${foreign.join(', ')}), and svc dev rewrites the whole file: pass a file of its own, such as .env.svc-dev`,
      );
    let platform: Awaited<ReturnType<typeof startDevPlatform>> | undefined;
    let sizeCheck: NodeJS.Timeout | undefined;
    // Writes the env file again (a version or a secret changed): the error when it cannot be written, said by the caller.
    const rewriteBackendEnv = async (): Promise<Error | undefined> =>
      platform && envFile
        ? writeBackendEnv(resolve(io.cwd, envFile), platform).then(
            () => undefined,
            (error: Error) => error,
          )
        : undefined;
    // The version served may have changed: the env file names it. A file that cannot be written is said, and kept;
    // the sentence is also the publisher's warning.
    const versionChanged = async (): Promise<string | undefined> => {
      const failed = await rewriteBackendEnv();
      if (!failed) return undefined;
      const warning = `--backend-env ${envFile} could not be rewritten (${failed.message}), so your backend still has the version before: make it writable; it is written again at the next version or secret change.`;
      writeLine(io.stderr, `svc dev: ${warning}`);
      return warning;
    };
    // Set when the file svc publish finds this svc dev by could not be written: the start's advice then names the
    // settings' upload alone.
    let storeUnfindable = false;
    const onNotice = async (notice: DevNotice) => {
      if (notice.kind === 'store-unfindable') storeUnfindable = true;
      // The backend learns a rotated secret from its env file, rewritten before the rotation is answered.
      // An edit of the manifest may change the version served, which the env file names.
      if (notice.kind === 'manifest-edited') await versionChanged();
      if (notice.kind === 'secret-changed' && platform && envFile) {
        const failed = await rewriteBackendEnv();
        // The rotation happened either way: webhooks are signed with the new secret, which the backend must get.
        writeLine(
          io.stderr,
          failed
            ? `svc dev: ${notice.message} But ${envFile} could not be rewritten (${failed.message}): until your backend has the new secret, it refuses every webhook (401). Make the file writable and rotate again: the file then holds the secrets that verify.`
            : `svc dev: ${notice.message} ${envFile} now holds both: reload your backend's settings.`,
        );
      } else writeLine(io.stderr, `svc dev: ${notice.message}`);
    };
    // The platform tells each blocked request once, however often the page retries it.
    const onEvent = (event: DevEvent) => {
      if (!values.quiet) writeLine(io.stderr, formatDevEvent(event));
    };
    // Listening for Ctrl-C before the platform starts: a stop during the start, or right after it, closes the
    // platform once it is up and removes its lock and discovery files (exit 0), instead of Node's default of exiting
    // on the spot. SIGHUP is the terminal closed. The stop is said, so a log kept of the terminal shows why it ended.
    const stopped =
      hooks.stopped ??
      new Promise<void>((done) => {
        for (const signal of STOP_SIGNALS)
          process.once(signal, () => {
            writeLine(io.stderr, `svc dev: stopping (${signal}).`);
            done();
          });
      });
    const fixed = values.port !== undefined;
    let started: { platform: DevPlatform; port: number } | number = EXIT.usage;
    try {
      started = await startOnFreePort(
        {
          ...(packageFile ? { package: packageFile } : { dir: appDir }),
          packagePort: values['package-port'] === undefined ? undefined : Number(values['package-port']),
          webhooks: values.webhooks,
          allow: values.allow === undefined ? undefined : allowed,
          appUrl: values['app-url'],
          statePath,
          retryScale,
          mcp: values.mcp !== false && !values['no-mcp'],
          agentId,
          elicit,
          mcpOrigins: values['mcp-origin'],
          onNotice,
          onEvent,
          // A published version is the one events name from now on: the env file says so (svc trigger reads it).
          onVersionServed: versionChanged,
          ...(envFile ? { neverServe: [resolve(io.cwd, envFile)] } : {}),
          keyForms: developerKeyForms,
        },
        fixed ? Number(values.port) : undefined,
        io,
      );
    } finally {
      // Up: the reset holds, and the state before it goes; refused: it is put back as it was.
      if (setAside)
        await (typeof started === 'number' ? rename(setAside, statePath!) : rm(setAside, { force: true })).catch(
          () => {},
        );
    }
    if (typeof started === 'number') return started;
    platform = started.platform;
    const { port } = started;
    if (!fixed && port !== DEFAULT_DEV_PORT)
      writeLine(io.stderr, `svc dev: the messenger is on port ${port}, not ${DEFAULT_DEV_PORT} (it was taken).`);
    // From here the platform runs: whatever ends the command closes it, or the process would stay up serving.
    let unlockEnv: (() => Promise<void>) | undefined;
    // The app's origin the env file gave a backend before this run (--app-url, a folder and a package each have one).
    const previousOrigin = envLines.find((line) => line.name === 'SVC_APP_ORIGIN')?.value;
    try {
      if (envFile) {
        const path = resolve(io.cwd, envFile);
        // Another svc dev writing the same file would give the backend its secret and API base instead of ours.
        const written = await mkdir(dirname(path), { recursive: true, mode: 0o700 })
          .then(() => lockFile(path, '--backend-env'))
          .then(async (unlock) => {
            unlockEnv = unlock;
            await writeBackendEnv(path, platform!);
          })
          .catch((error: NodeJS.ErrnoException) => error);
        if (written instanceof Error) {
          writeLine(
            io.stderr,
            written.code === 'ELOCKED'
              ? `svc dev: ${written.message}`
              : `svc dev: --backend-env ${envFile} cannot be written (${written.message}): pass a path you can write to.`,
          );
          return EXIT.usage;
        }
      }
      // The printed URL opens the app at start, its frame loading beside the messenger's first screen.
      const url = platform.appUrl ? `${platform.url}${APP_OPEN_FRAGMENT}` : platform.url;
      writeLine(io.stdout, url);
      writeLine(
        io.stderr,
        `svc dev: ${printable(platform.manifest?.name ?? platform.miniAppId)} ${platform.state.version} from ${appDir}; package at ${platform.appUrl}; ` +
          `backend: SVC_API_BASE=${platform.baseUrl} SVC_AUTH_URL=${platform.authUrl} SVC_REALM=${platform.realm}` +
          (envFile
            ? ` (all settings, the signing secret too, in ${envFile})`
            : ' (--backend-env <path> writes the signing secret for it)') +
          `; state ${statePath ? `in ${statePath} (--reset starts afresh)` : 'in memory (--state <file> keeps it, with the signing secret and the MCP token)'}. Ctrl-C stops.`,
      );
      if (previousOrigin && platform.appOrigin && previousOrigin !== platform.appOrigin)
        writeLine(
          io.stderr,
          `svc dev: the app's origin is ${platform.appOrigin} now, not ${previousOrigin}: ${envFile} says so (SVC_APP_ORIGIN); restart a backend that read the old one, or it refuses the app's requests (CORS).`,
        );
      if (values['app-url'])
        writeLine(
          io.stderr,
          `svc dev: your page at ${values['app-url']} must carry, in its <head>, while you develop (a host writes its own into what ships: with Vite, add it from a plugin's transformIndexHtml with apply: 'serve'):\n  <meta name="svc-host-origins" content="${platform.origin}">\n` +
            `svc dev: your dev server serves the page, so the manifest's csp and network allowlist are not applied to it and blocked requests are not reported: check them on the build (npm run build, then svc dev dist).`,
        );
      else if (!packageFile && platform.manifest && !existsSync(resolve(appDir, platform.manifest.entry)))
        // Started anyway: the folder may be a build's output, written after this.
        writeLine(
          io.stderr,
          `svc dev: warning: the entry ${platform.manifest.entry} is not in ${appDir}, so the app's frame shows a 404: build the app into this folder, pass the folder that holds it, or pass --app-url <your dev server>.`,
        );
      // A folder svc pack would refuse for its size is said once, after the start: summing a large build's files then
      // costs the start and the page's first load nothing.
      if (!packageFile && !values['app-url'])
        sizeCheck = setTimeout(
          () =>
            void checkPackable(appDir).then(
              (issues) => {
                for (const issue of issues) writeLine(io.stderr, `svc dev: warning: ${issue.message}.`);
              },
              () => {},
            ),
          SIZE_CHECK_AFTER_MS,
        );
      if (platform.mcpConfigs) writeLine(io.stderr, platform.mcpConfigs);
      if (packageFile)
        writeLine(
          io.stderr,
          storeUnfindable
            ? `svc dev: the local store holds ${platform.miniAppId}; Settings → Store uploads a new version (svc publish cannot find this svc dev: see above).`
            : `svc dev: the local store holds ${platform.miniAppId}; \`svc publish <file.swbn> --to ${platform.origin}\` (or Settings → Store) uploads a new version.`,
        );
      if (values.open) openBrowser(url, io);
      await stopped;
      return EXIT.ok;
    } finally {
      clearTimeout(sizeCheck);
      await platform.close();
      await unlockEnv?.();
    }
  },
});
