import { resolve } from 'node:path';
import { STORE_PATH } from '../dev/storePath';
import { fetchErrorCode } from '../server/fetchErrorCode';
import { isPackageError, readPackage } from '../package';
import { readPackageFile } from '../package/readPackageFile';
import { listStoreDiscoveries, readStoreDiscovery } from '../dev/platform/store/storeDiscovery';
import { EXIT, writeLine } from './CliIo';
import { DEFAULT_DEV_PORT } from './devCommand';
import { defineCommand } from './defineCommand';
import { usageError } from './usageError';
import { localDiscoveryFolder } from '../dev/localDiscovery';
import { shownPath } from './shownPath';

/** How long `svc publish` waits for the store's answer: a loopback upload takes well under a second. */
const PUBLISH_WAIT_MS = 30_000;

/**
 * `svc publish <file.swbn> [--to <svc dev URL>]`: uploads a signed package to the local store of a running `svc dev`.
 * Exit 0 accepted, 1 refused (the store's problem detail is printed), 2 usage error, unreadable file or no store.
 * @public
 */
export const PUBLISH = defineCommand({
  name: 'publish',
  usage: ['<file.swbn>'],
  summary: `Upload a signed package to the local store of a running svc dev.`,
  description: `Uploads the package to the store of the svc dev running on this machine (its token is in a file only you can
read). The store verifies it, binds the id to its key on the first upload, accepts afterwards only packages signed
by the bound key (or by it and one new key: a rotation), and only a version higher than every one it accepted,
revoked ones included. An accepted version is what installed people run: the open messenger relaunches the app.`,
  options: {
    to: {
      type: 'string',
      value: 'url',
      help: `The svc dev's URL or origin (default http://127.0.0.1:${DEFAULT_DEV_PORT}, or the only svc dev running).`,
    },
  },
  footer: `Exit codes: 0 accepted (or these same bytes were already), 1 refused by the store (or over its size limit, before sending), 2 usage error, unreadable file or no svc dev there.
`,
  async run({ values, positionals }, io) {
    if (positionals.length !== 1)
      return usageError(io, 'publish', positionals.length ? 'one package at a time' : 'pass the .swbn file to publish');
    let origin: string;
    try {
      origin = new URL(values.to ?? `http://127.0.0.1:${DEFAULT_DEV_PORT}`).origin;
    } catch {
      return usageError(io, 'publish', `--to ${values.to} is not a URL; pass the URL svc dev printed`);
    }
    if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin))
      return usageError(
        io,
        'publish',
        `--to ${origin}: the local store runs on loopback; pass the URL svc dev printed`,
      );
    const file = resolve(io.cwd, positionals[0]!);
    const label = shownPath(io.cwd, file);
    // Over the store's limit, refused here from its size: nothing is read or sent.
    const bytes = await readPackageFile(file).catch((error: NodeJS.ErrnoException) => error);
    if (isPackageError(bytes)) {
      writeLine(io.stderr, `svc publish: ${label}: refused (${bytes.code}): ${bytes.message}`);
      return EXIT.invalid;
    }
    if (bytes instanceof Error) {
      writeLine(
        io.stderr,
        `svc publish: ${label} cannot be read (${bytes.code}); pass the .swbn file \`svc pack\` wrote`,
      );
      return EXIT.usage;
    }
    let store = await readStoreDiscovery(origin.replace('localhost', '127.0.0.1'));
    if (!store && !values.to) {
      // Not on the default port (svc dev --port, or 4310 taken): the one svc dev running elsewhere is meant.
      // Several: those that run this package's app, when any does (another is refused as the wrong app anyway).
      const all = await listStoreDiscoveries();
      const id = packageId(bytes);
      const forApp = all.filter((r) => id !== undefined && r.mini_app_id === id);
      const running = forApp.length > 0 ? forApp : all;
      const which = forApp.length > 0 ? ` that runs ${id}` : '';
      if (running.length === 1) {
        store = running[0]!;
        writeLine(
          io.stderr,
          `svc publish: no svc dev runs at ${origin}; publishing to the one at ${store.url}${which}`,
        );
      } else if (running.length > 1) {
        writeLine(
          io.stderr,
          `svc publish: no svc dev runs at ${origin}, and ${running.length} run elsewhere${which ? ' that run this app' : ''} (${running.map((r) => r.url).join(', ')}); pass --to with the one that runs this app`,
        );
        return EXIT.usage;
      }
    }
    if (!store) {
      // Something answers there, yet left no file here: a svc dev of another user, or of another SVC_STATE_DIR.
      const answers = await fetch(origin, { signal: AbortSignal.timeout(2000) }).then(
        () => true,
        () => false,
      );
      writeLine(
        io.stderr,
        answers
          ? `svc publish: a server answers at ${origin}, but no svc dev there left its publish token in ${localDiscoveryFolder()}: run svc publish as the user, and with the SVC_STATE_DIR, that started svc dev, or upload the file in its messenger's Settings → Store`
          : `svc publish: no svc dev runs at ${origin}, and none left its publish token in ${resolve(localDiscoveryFolder())} (${process.env.SVC_STATE_DIR ? 'under SVC_STATE_DIR' : 'under ~/.svc-sdk, as SVC_STATE_DIR is not set'}: a svc dev started with another SVC_STATE_DIR leaves it under that one); start one (svc dev <file.swbn>), or pass --to <the URL it printed> with the SVC_STATE_DIR it was started with`,
      );
      return EXIT.usage;
    }
    let response: Response;
    try {
      response = await fetch(`${store.url}${STORE_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${store.token}`, 'content-type': 'application/octet-stream' },
        body: bytes,
        // A svc dev that is stopped (Ctrl-Z) keeps its port open and never answers.
        signal: AbortSignal.timeout(PUBLISH_WAIT_MS),
      });
    } catch (error) {
      const why =
        (error as Error).name === 'TimeoutError'
          ? `no answer in ${PUBLISH_WAIT_MS / 1000} s`
          : (fetchErrorCode(error) ?? (error as Error).message);
      writeLine(io.stderr, `svc publish: ${store.url} did not answer (${why}); is svc dev still running?`);
      return EXIT.usage;
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.status === 201) {
      writeLine(
        io.stdout,
        `published ${label}: ${body.id} ${body.version}, signed by ${(body.signers as string[]).join(' and ')}; the id is bound to key ${body.key_id}`,
      );
      // Published all the same: what svc dev could not do after (its --backend-env not rewritten).
      if (typeof body.warning === 'string') writeLine(io.stderr, `svc publish: but svc dev says: ${body.warning}`);
      return EXIT.ok;
    }
    // The same bytes already accepted: a retried CI step has nothing left to do, and succeeds.
    if (response.status === 409 && String(body.type ?? '').endsWith('/already-published')) {
      writeLine(io.stdout, `already published ${label}: ${body.detail ?? ''}`);
      return EXIT.ok;
    }
    // A 5xx is svc dev's failure, not a refusal: its detail says whether the version was accepted.
    const verdict = response.status >= 500 ? 'failed' : 'refused';
    // The problem's code (`version-not-higher`, the end of its type) is what ship.md and a CI script go by.
    const code = /[^/]+$/.exec(String(body.type ?? ''))?.[0];
    const why = `${response.status}${code ? ` ${code}:` : ''} ${body.title ?? ''}`;
    writeLine(io.stderr, `svc publish: ${verdict} (${why}): ${body.detail ?? ''}`);
    return EXIT.invalid;
  },
});

/** The id a package names, or undefined when it cannot be read as one (the store says why, when it gets it). */
function packageId(bytes: Uint8Array): string | undefined {
  try {
    return readPackage(bytes).id;
  } catch {
    return undefined;
  }
}
