import { holdsKeyForm, isPrivateKey } from './isPrivateKey';
import { unpackedMembers } from './unpackedMembers';

/**
 * What secret `body` is or holds, said as the rest of a sentence that starts with the file's name, and what to do; or
 * undefined. A private key (in a form the markers find, or one of `keyForms`; also gzipped or in a zip); a file
 * `svc dev` writes with the platform's signing secret in it (its `--state` file, its `--backend-env` file), also a copy
 * saved pretty-printed, with a byte order mark, or as an env file that exports the secret; or any text holding one of
 * `live`, the running svc dev's own secrets (a copy of its discovery files, a hard link to its files); each also as
 * UTF-16 writes it (the running secrets as UTF-32 too). `svc pack`
 * refuses to pack such a file and `svc dev` to serve it: anyone who can load the app's files could read it. `running`
 * marks a find of `live` alone: only the svc dev that runs knows its own secrets, so `svc pack` cannot refuse it.
 * @internal
 */
export function secretIn(
  body: Uint8Array,
  keyForms: readonly (string | Uint8Array)[],
  live: readonly string[] = [],
): { what: string; advice: string; running?: true } | undefined {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const found = secretOf(bytes, keyForms, live);
  if (found) return found;
  // What a gzip file or a zip archive holds is looked at as the file itself is, a member at a time.
  for (const member of unpackedMembers(bytes)) {
    const inMember = secretOf(member, keyForms, live);
    if (inMember) return inMember;
  }
  return undefined;
}

/** What secret one file's (or archive member's) bytes are or hold: see {@link secretIn}. */
function secretOf(
  bytes: Buffer,
  keyForms: readonly (string | Uint8Array)[],
  live: readonly string[],
): { what: string; advice: string; running?: true } | undefined {
  if (isPrivateKey(bytes) || holdsKeyForm(bytes, keyForms))
    return { what: 'is or holds a private key', advice: 'keep keys out of the app folder' };
  if (texts(bytes.subarray(0, 128)).some((start) => /^\uFEFF?\s*\{\s*"svc_dev_state"\s*:/.test(start)))
    return {
      what: "is svc dev's state file, which holds the signing secret",
      advice: 'keep it out of the app folder (svc dev --state <a file outside it>)',
    };
  const variable = /^\s*(?:export\s+)?SVC_SIGNING_SECRET\s*=/m;
  if (
    variable.test(bytes.toString('latin1')) ||
    (holdsWide(bytes, 'SVC_SIGNING_SECRET') && texts(bytes).some((text) => variable.test(text)))
  )
    return {
      what: "holds SVC_SIGNING_SECRET, the backend's signing secret",
      advice: 'keep it out of the app folder (svc dev --backend-env <a file outside it>)',
    };
  // Secrets of 16 characters and more only: a shorter string could be anything.
  if (live.some((secret) => secret.length >= 16 && (bytes.includes(secret) || holdsWide(bytes, secret))))
    return {
      what: 'holds a secret of the running svc dev (its signing secret or one of its tokens)',
      advice: "keep copies of svc dev's files and secrets out of the app folder",
      running: true,
    };
  return undefined;
}

/**
 * Whether `bytes` hold `ascii` as UTF-16 writes it, little- or big-endian (what Windows PowerShell 5.1's `>` and
 * Notepad's "Unicode" save, and what a copy of a secret made there is), or as UTF-32 does.
 */
function holdsWide(bytes: Buffer, ascii: string): boolean {
  const little = Buffer.from(ascii, 'utf16le');
  if (bytes.includes(little) || bytes.includes(Buffer.from(little).swap16())) return true;
  const wide = Buffer.alloc(ascii.length * 4);
  for (let i = 0; i < ascii.length; i++) wide[i * 4] = ascii.charCodeAt(i);
  return bytes.includes(wide) || bytes.includes(Buffer.from(wide).swap32());
}

/** A file's text as UTF-8 or Latin-1 reads it (one), and, when it holds a zero byte, as UTF-16 either way (three). */
function texts(bytes: Buffer): string[] {
  const latin1 = bytes.toString('latin1').replace(/^\xEF\xBB\xBF/, '\uFEFF');
  if (!bytes.includes(0)) return [latin1];
  const even = bytes.subarray(0, bytes.length - (bytes.length % 2));
  return [latin1, even.toString('utf16le'), Buffer.from(even).swap16().toString('utf16le')];
}
