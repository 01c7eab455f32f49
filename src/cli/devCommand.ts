import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DevAppError, type DevEvent, formatDevEvent, startDevPlatform } from '../dev';
import { type CliIo, EXIT, writeLine } from './CliIo';
import { DEV_HELP } from './help';
import { attempt, usageError } from './usageError';

/** Options only a test passes: how the command learns to stop (default SIGINT and SIGTERM). */
export interface DevCommandHooks {
  stopped?: Promise<unknown>;
}

/** The messenger's port when none is given: stable across runs, so the app's meta tag stays right. */
export const DEFAULT_DEV_PORT = 4310;
/** Ports tried after the default one, when it is taken. */
const PORT_TRIES = 20;

const isPort = (value: string | undefined) => value === undefined || (/^\d+$/.test(value) && Number(value) < 65536);
const isLoopbackOrigin = (value: string) => /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(value);

/** Opens a URL in the system browser, best effort (a headless machine has none). */
function openBrowser(url: string): void {
  const command = process.platform == 'darwin' ? 'open' : process.platform == 'win32' ? 'explorer' : 'xdg-open';
  try {
    spawn(command, [url], { stdio: 'ignore', detached: true })
      .on('error', () => {})
      .unref();
  } catch {
    // No browser to open: the URL is printed anyway.
  }
}

/**
 * `svc dev [dir]`: validates `<dir>/manifest.json`, starts the local platform (the simulated messenger, identity
 * provider, server API, webhooks) and the app's package on its own origin, prints the messenger's URL, and runs
 * until interrupted. Exit 1 for an invalid manifest, 2 for a usage error.
 * @public
 */
export async function devCommand(argv: string[], io: CliIo, hooks: DevCommandHooks = {}): Promise<number> {
  const parsed = attempt(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        'package-port': { type: 'string' },
        webhooks: { type: 'string' },
        allow: { type: 'string', multiple: true },
        'app-url': { type: 'string' },
        state: { type: 'string' },
        'retry-scale': { type: 'string' },
        'env-file': { type: 'string' },
        open: { type: 'boolean' },
        reset: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (parsed instanceof Error) return usageError(io, 'dev', parsed.message);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(DEV_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1) return usageError(io, 'dev', `one app folder at most; got ${positionals.join(', ')}`);
  for (const flag of ['port', 'package-port'] as const)
    if (!isPort(values[flag])) return usageError(io, 'dev', `--${flag} must be a port number (0 for any free one)`);
  const bad = (values.allow ?? []).find((o) => !isLoopbackOrigin(o));
  if (bad) return usageError(io, 'dev', `--allow ${bad}: give a loopback origin such as http://127.0.0.1:3000`);
  for (const flag of ['webhooks', 'app-url'] as const) {
    const value = values[flag];
    if (value !== undefined && !/^https?:\/\/[^\s/]/.test(value))
      return usageError(io, 'dev', `--${flag} must be an http(s) URL, such as http://localhost:3000/svc/webhooks`);
  }
  const retryScale = values['retry-scale'] === undefined ? undefined : Number(values['retry-scale']);
  if (retryScale !== undefined && !(retryScale > 0))
    return usageError(io, 'dev', '--retry-scale must be a positive number (0.01 makes retries 100 times faster)');

  const dir = resolve(io.cwd, positionals[0] ?? '.');
  const statePath = values.state === undefined ? undefined : resolve(io.cwd, values.state);
  if (values.reset && statePath) await rm(statePath, { force: true });
  const envFile = values['env-file'] === undefined ? undefined : resolve(io.cwd, values['env-file']);
  // The backend's settings, the signing secrets among them: in a file only you can read, never on the terminal.
  // Written at start and again on each rotation (the previous secret stays valid during the overlap).
  const writeEnv = (p: Awaited<ReturnType<typeof startDevPlatform>>) => {
    if (!envFile) return Promise.resolve();
    const [current, previous] = p.signingSecrets;
    const lines = {
      SVC_API_BASE: p.baseUrl,
      SVC_AUTH_URL: p.authUrl,
      SVC_REALM: p.realm,
      SVC_AUDIENCE: p.audience,
      SVC_MINI_APP_ID: p.miniAppId,
      SVC_SIGNING_SECRET: current ?? '',
      ...(previous ? { SVC_SIGNING_SECRET_PREVIOUS: previous } : {}),
    };
    const text = Object.entries(lines)
      .map(([k, v]) => `${k}=${v}\n`)
      .join('');
    return writeFile(envFile, text, { mode: 0o600 });
  };
  const seenBlocked = new Set<string>();
  const onEvent = (event: DevEvent) => {
    if (values.quiet) return;
    // A page retries a blocked request as often as it likes: each one is printed once.
    if (event.type == 'blocked') {
      if (seenBlocked.has(event.blocked)) return;
      seenBlocked.add(event.blocked);
    }
    writeLine(io.stderr, formatDevEvent(event));
  };
  let generation = 0;
  let platform: Awaited<ReturnType<typeof startDevPlatform>> | undefined;
  const onChange = (state: { secret: { generation: number } }) => {
    if (!platform || state.secret.generation == generation) return;
    generation = state.secret.generation;
    void writeEnv(platform).then(() => {
      if (envFile) writeLine(io.stderr, `svc dev: the signing secret rotated; ${values['env-file']} has both secrets.`);
    });
  };
  const fixed = values.port !== undefined;
  let port = fixed ? Number(values.port) : DEFAULT_DEV_PORT;
  for (;;) {
    try {
      platform = await startDevPlatform({
        dir,
        port,
        packagePort: values['package-port'] === undefined ? 0 : Number(values['package-port']),
        webhooks: values.webhooks,
        allow: values.allow,
        appUrl: values['app-url'],
        statePath,
        retryScale,
        onEvent,
        onChange,
      });
      break;
    } catch (error) {
      if (error instanceof DevAppError) {
        writeLine(io.stderr, `svc dev: ${error.message}`);
        return EXIT.invalid;
      }
      if ((error as NodeJS.ErrnoException).code != 'EADDRINUSE') throw error;
      if (fixed || port >= DEFAULT_DEV_PORT + PORT_TRIES) {
        writeLine(io.stderr, `svc dev: port ${port} is taken; pass --port <another> or --port 0 for any free one.`);
        return EXIT.usage;
      }
      writeLine(io.stderr, `svc dev: port ${port} is taken; trying ${port + 1}.`);
      port += 1;
    }
  }
  generation = platform.state.secret.generation;
  await writeEnv(platform);
  writeLine(io.stdout, platform.url);
  if (!fixed && port != DEFAULT_DEV_PORT)
    writeLine(io.stderr, `svc dev: the messenger is on port ${port}, not ${DEFAULT_DEV_PORT} (it was taken).`);
  writeLine(
    io.stderr,
    `svc dev: ${platform.manifest?.name ?? platform.miniAppId} ${platform.state.version} from ${dir}; package at ${platform.appUrl}; ` +
      `backend: SVC_API_BASE=${platform.baseUrl} SVC_AUTH_URL=${platform.authUrl} SVC_REALM=${platform.realm}` +
      (envFile
        ? ` (all settings, the signing secret too, in ${values['env-file']})`
        : ' (--env-file <path> writes the signing secret for it)') +
      `; state ${statePath ? `in ${statePath} (--reset starts afresh)` : 'in memory (--state <file> keeps it)'}. Ctrl-C stops.`,
  );
  if (values['app-url'])
    writeLine(
      io.stderr,
      `svc dev: your page at ${values['app-url']} must carry, in its <head>:\n  <meta name="svc-host-origins" content="${platform.origin}">`,
    );
  if (values.open) openBrowser(platform.url);
  await (hooks.stopped ??
    new Promise<void>((done) => {
      process.once('SIGINT', () => done());
      process.once('SIGTERM', () => done());
    }));
  await platform.close();
  return EXIT.ok;
}
