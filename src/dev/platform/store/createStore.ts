import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { compareVersions } from '../../../manifest';
import { nextPatch } from '../../../manifest/version';
import { isPackageError, MAX_PACKAGE_BYTES, type VerifiedPackage, verifyPackage } from '../../../package';
import { checkControlRequest } from '../checkControlRequest';
import { limitBody } from '../limitBody';
import type { PlatformEnv } from '../PlatformEnv';
import { sameToken } from '../../sameToken';
import type { DevState, DevStoreVersion } from '../../devContract';
import { STORE_PATH } from '../../storePath';
import { PROBLEMS } from '../../../server/problems';

/**
 * Why the store refused an upload: the problem's name (its `type` ends with it) and HTTP status; the ones the server
 * API has too keep its status, in the store's words.
 */
const STORE_PROBLEMS = {
  forbidden: { ...PROBLEMS.forbidden, title: 'Not allowed to publish here' },
  'invalid-package': { status: 422, title: 'The package failed verification' },
  'wrong-app': { status: 409, title: 'This store runs another app' },
  'key-not-bound': { status: 403, title: 'Not signed by the key the id is bound to' },
  'version-not-higher': { status: 409, title: 'The version is not higher than the one accepted or run' },
  'already-published': { status: 409, title: 'This package is already published' },
  'payload-too-large': { ...PROBLEMS['payload-too-large'], title: 'Package too large' },
  'method-not-allowed': PROBLEMS['method-not-allowed'],
} as const;

type StoreProblemName = keyof typeof STORE_PROBLEMS;

/** What an upload gets: the accepted version's record (201), or a problem detail (RFC 9457). */
export type StoreAnswer =
  | { ok: true; status: 201; body: DevStoreVersion & { id: string; key_id: string; warning?: string } }
  | {
      ok: false;
      status: number;
      body: { type: string; title: string; status: number; detail: string; instance: string } & Record<string, unknown>;
    };

/** Where an accepted package left the id's key. */
export interface StoreBinding {
  /** The id of the key the app's id is bound to now. */
  key_id: string;
  /** The key it was bound to before, when this package rotated it. */
  moved_from?: string;
  /** What the publisher should know: the package was also signed by a key the id moved away from. */
  notice?: string;
}

/** Options of {@link createStore}. */
export interface StoreOptions {
  /** The platform's state (tracked): the store keeps its record in `state.store`. */
  state: DevState;
  /** Saves the state and tells the pages; resolves once it is durable. */
  changed(): Promise<void>;
  /** The messenger's origin (`http://127.0.0.1:<port>`), for problem types and the page's uploads. */
  origin: string;
  /** The messenger page's control token (uploads from the settings). */
  controlToken: string;
  /** The token `svc publish` sends (from the discovery file only this user can read). */
  publishToken: string;
  /** What svc dev started on, named in a refusal of a first version lower than the one it runs. */
  runs?: 'folder' | 'package';
  /**
   * Told of each accepted package, after the state is saved: the platform serves it from now on. A sentence it
   * resolves to is the answer's `warning`.
   */
  accepted(pkg: VerifiedPackage, binding: StoreBinding): Promise<string | undefined> | undefined;
  /** The largest package accepted; default {@link MAX_PACKAGE_BYTES}. */
  maxBytes?: number;
}

/** What to do when the package is not signed by the key the id is bound to. */
const SIGN_WITH_BOUND =
  'Sign with the bound key; to move to a new key, sign one release with both (svc pack --key old.pem --key new.pem).';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A store problem about the upload path, its type under `<origin>/errors/store/`. */
function storeProblem(origin: string) {
  return (name: StoreProblemName, detail: string, extra: Record<string, unknown> = {}): StoreAnswer => {
    const { status, title } = STORE_PROBLEMS[name];
    return {
      ok: false,
      status,
      body: { type: `${origin}/errors/store/${name}`, title, status, detail, instance: STORE_PATH, ...extra },
    };
  };
}

/**
 * The key the store binds the id to after this package: the one its id derives from, or after the first the bound
 * key, or the one new key a release signed by both moves the id to; or the refusal of a package the bound key did
 * not sign, said for a rotation done when the key the id moved away from signed it alone. `notice` says a key the id
 * moved away from signed it too.
 */
function signingKey(
  pkg: VerifiedPackage,
  record: StoreOptions['state']['store'],
  bound: Uint8Array | undefined,
  problem: ReturnType<typeof storeProblem>,
): { answer: StoreAnswer } | { key: VerifiedPackage['signers'][number]; notice?: string } {
  const signer = (key: Uint8Array) => pkg.signers.find((s) => base64(s.publicKey) === base64(key));
  let key = pkg.signers.find((s) => s.id === pkg.id);
  let notice: string | undefined;
  if (record && bound) {
    const boundSigner = signer(bound);
    // Signed by the key the id moved away from: the everyday `svc pack dist` after a rotation, which finds the old key
    // by the id. The advice is for a rotation done, not one to start.
    const retired = pkg.signers.find((s) => record.retired_keys?.includes(base64(s.publicKey)));
    if (!boundSigner && retired)
      return {
        answer: problem(
          'key-not-bound',
          `The id ${pkg.id} moved from the key ${retired.id}, which signed the package, to ${record.key_id} in a rotation. Sign with ${record.key_id} alone: svc pack <the app folder> --key <its file> --rotated (without --key, svc pack signs with the key it finds by the id, ~/.svc-sdk/keys/${pkg.id}.pem, the old one).`,
          { bound_key_id: record.key_id },
        ),
      };
    if (!boundSigner)
      return {
        answer: problem(
          'key-not-bound',
          `The id ${pkg.id} is bound to the key ${record.key_id}, and the package is signed by ${pkg.signers.map((s) => s.id).join(', ')}. ${SIGN_WITH_BOUND}`,
          { bound_key_id: record.key_id },
        ),
      };
    const others = pkg.signers.filter((s) => s !== boundSigner);
    if (others.length > 1)
      return {
        answer: problem(
          'key-not-bound',
          `A rotation moves the id to one new key, and the package is signed by ${others.length} keys besides the bound one (${others.map((s) => s.id).join(', ')}). Sign with the bound key and the one new key.`,
        ),
      };
    const [other] = others;
    // A rotation never leads back: a release signed again with a key the id moved away from (a CI job that still
    // passes both --key flags) is the bound key's release, and the id stays where it is. Moving back would make the
    // old key, perhaps the leaked one, the only key accepted.
    if (other && record.retired_keys?.includes(base64(other.publicKey))) {
      key = boundSigner;
      notice = `${other.id} also signed it, a key this id moved away from: the id stays bound to ${record.key_id}. Sign with ${record.key_id} alone (svc pack <the app folder> --key <its file> --rotated).`;
    } else key = other ?? boundSigner;
  }
  if (!key) throw new Error('verifyPackage passed a package whose id is derived from no signer and none is trusted');
  return { key, notice };
}

/**
 * Checks one package against the store's rules (verified as a host does, the app this store runs, the key its id is
 * bound to, a higher version) and, when it passes, records it as the installed version.
 */
async function acceptPackage(
  options: StoreOptions,
  problem: ReturnType<typeof storeProblem>,
  bytes: Uint8Array,
): Promise<StoreAnswer> {
  const { state } = options;
  const maxBytes = options.maxBytes ?? MAX_PACKAGE_BYTES;
  const record = state.store;
  const bound = record ? new Uint8Array(Buffer.from(record.key, 'base64')) : undefined;
  let pkg: VerifiedPackage;
  try {
    pkg = await verifyPackage(bytes, { maxBytes, trustedKeys: bound ? [bound] : [] });
  } catch (error) {
    if (!isPackageError(error)) throw error;
    // Signed by a key that is not the bound one (nor the one the id derives from): the store's rule, as for a package
    // of the bound key's id signed by another.
    if (error.code === 'untrusted-key' && record)
      return problem(
        'key-not-bound',
        `The id ${state.mini_app_id} is bound to the key ${record.key_id}, and no key that signed the package is it. ${SIGN_WITH_BOUND}`,
        { code: error.code, bound_key_id: record.key_id },
      );
    if (error.code === 'too-large') return problem('payload-too-large', error.message, { code: error.code });
    return problem('invalid-package', `The package failed the check ${error.code}: ${error.message}`, {
      code: error.code,
    });
  }
  if (pkg.id !== state.mini_app_id)
    return problem(
      'wrong-app',
      `This svc dev runs the app ${state.mini_app_id}; the package is ${pkg.id}. Publish it to the svc dev that runs ${pkg.id}.`,
    );
  const signing = signingKey(pkg, record, bound, problem);
  if ('answer' in signing) return signing.answer;
  const { key, notice } = signing;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // The same bytes again (a CI job retried) are not a reused version: said apart, so a retry can tell.
  const same = record?.versions.find((v) => v.sha256 === sha256);
  if (record && same)
    return problem(
      'already-published',
      `This package is ${pkg.id} ${same.version} as the store accepted it at ${same.accepted_at} (the same bytes, sha256 ${sha256})${same.revoked ? ', and that version was revoked: the messenger does not open it' : ''}: nothing to publish again. A changed app needs a higher version, such as ${nextPatch(record.highest)}.`,
      { version: same.version, sha256 },
    );
  if (record && compareVersions(pkg.version, record.highest) <= 0) {
    const reused = record.versions.some((v) => v.version === pkg.version)
      ? ` ${pkg.version} was published with other bytes: a changed app is a new version.`
      : '';
    return problem(
      'version-not-higher',
      `Version ${pkg.version} is not higher than ${record.highest}, the highest version this store accepted for ${pkg.id} (revoked versions count): publish a higher version, such as ${nextPatch(record.highest)}.${reused}`,
      { version: pkg.version, highest: record.highest },
    );
  }
  // The first upload to a svc dev started from a folder has no record to compare with, but the folder's version runs:
  // a lower one would take the app back to an older version than the one the person has.
  if (!record && compareVersions(pkg.version, state.version) < 0)
    return problem(
      'version-not-higher',
      `Version ${pkg.version} is lower than ${state.version}, the version svc dev runs now (from ${options.runs === 'package' ? 'the package it started on' : 'the app folder'}): publish ${state.version} or a higher version.`,
      { version: pkg.version, highest: state.version },
    );
  // No await between the checks above and this write: the next upload sees it.
  const distribution = pkg.manifest.distribution;
  const version: DevStoreVersion = {
    version: pkg.version,
    sha256,
    signers: pkg.signers.map((s) => s.id),
    accepted_at: new Date().toISOString(),
    ...(distribution?.channel === 'tenant-private' ? { tenants: [...distribution.tenants] } : {}),
  };
  const moved = record && record.key !== base64(key.publicKey);
  // The key a rotation moved away from joins the retired ones; absent until a first rotation.
  const retired = moved ? [...(record.retired_keys ?? []), record.key] : record?.retired_keys;
  state.store = {
    key: base64(key.publicKey),
    key_id: key.id,
    highest: pkg.version,
    versions: [...(record?.versions ?? []), version],
    ...(retired ? { retired_keys: retired } : {}),
  };
  state.version = pkg.version;
  state.version_revoked = false;
  for (const installation of state.installations) installation.version = pkg.version;
  // Served before the change is streamed: a page reloads for the new version as the state reaches it, and must get
  // the new manifest with its HTML (the app's svc.app.version was the old one when the save came first). A save that
  // fails leaves the version accepted all the same (the state says so): it is served, and the failure answered.
  const serving = options.accepted(pkg, { key_id: key.id, ...(moved ? { moved_from: record.key_id } : {}), notice });
  let served: string | undefined;
  try {
    await options.changed();
  } finally {
    served = await serving;
  }
  const warning = [notice, served].filter(Boolean).join(' ');
  return { ok: true, status: 201, body: { id: pkg.id, key_id: key.id, ...version, ...(warning ? { warning } : {}) } };
}

/**
 * The local store of `svc dev`, holding the platform's version rules: it verifies each package as a host does; binds
 * the id to its key on the first upload and afterwards accepts only packages signed by the bound key (one signed by
 * the bound key and one other moves the binding to the other: a rotation, never back to a key it moved away from);
 * compares versions as three integers with
 * the highest it ever accepted, revoked ones included; and takes uploads one at a time, so two at once cannot both
 * pass. An accepted version becomes the installed version, and is served at once.
 */
export function createStore(options: StoreOptions) {
  const maxBytes = options.maxBytes ?? MAX_PACKAGE_BYTES;
  // Uploads run one after another: each one's check and write see the last one's result.
  let queue: Promise<unknown> = Promise.resolve();

  const problem = storeProblem(options.origin);
  const accept = (bytes: Uint8Array) => acceptPackage(options, problem, bytes);

  /** Whether the request may publish: `svc publish`'s bearer token, or the messenger page's control request. */
  const refusal = (headers: Record<string, string>): string | undefined => {
    const bearer = /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1];
    // Neither a page nor svc publish: a script that sent no token learns which one to send.
    if (bearer === undefined && headers.origin === undefined)
      return "Send the publish token: svc publish does (it reads it from the file svc dev wrote for this user), or upload the file in the messenger's Settings → Store.";
    if (bearer === undefined)
      return checkControlRequest(headers, { token: options.controlToken, origin: options.origin }, undefined, 'POST');
    const expectedHost = new URL(options.origin).host;
    if (headers.host !== expectedHost) return `Host must be ${expectedHost}.`;
    if (headers.origin !== undefined) return 'A page may not publish with the publish token; use the messenger.';
    return sameToken(bearer, options.publishToken)
      ? undefined
      : 'The publish token is wrong: run svc publish on the machine where this svc dev runs.';
  };
  const send = ({ status, body }: StoreAnswer) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': status === 201 ? 'application/json' : 'application/problem+json' },
    });
  const upload = (bytes: Uint8Array): Promise<StoreAnswer> => {
    const run = queue.then(() => accept(bytes));
    queue = run.catch(() => {});
    return run;
  };
  // The method, then who asks, then the size: a stranger learns nothing of the limit.
  const routes = new Hono<PlatformEnv>()
    .post(
      STORE_PATH,
      async (c, next) => {
        const refused = refusal(Object.fromEntries(c.req.raw.headers));
        if (refused) return send(problem('forbidden', refused));
        await next();
      },
      limitBody({
        maxSize: maxBytes,
        onError: () =>
          send(
            problem(
              'payload-too-large',
              `The package is over ${maxBytes} bytes, the store's limit: ship smaller assets.`,
            ),
          ),
      }),
      async (c) => send(await upload(new Uint8Array(await c.req.arrayBuffer()))),
    )
    .all(STORE_PATH, () => {
      const answer = send(
        problem('method-not-allowed', `POST the package's bytes (application/octet-stream) to ${STORE_PATH}.`),
      );
      answer.headers.set('allow', 'POST');
      return answer;
    });

  return {
    /** Uploads a package: resolves to the accepted version (201) or a problem detail. Uploads run one at a time. */
    upload,
    /** The store's route on the messenger origin (`POST` {@link STORE_PATH}): it answers its own problem types. */
    routes,
  };
}
