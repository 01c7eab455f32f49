import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { type CliIo, writeLine } from './CliIo';
import { readSmallText } from './readSmallText';
import { shellPath } from './shellPath';

/** A developer key read from its file (`file` as the user named it, for messages). */
export interface DeveloperKey {
  file: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The svc id derived from it. */
  id: string;
}

/**
 * The folder of developer keys: `$SVC_STATE_DIR/keys` (default `~/.svc-sdk/keys`), outside every project, so a key
 * never lands in a repository by accident.
 */
export function keysDir(): string {
  return join(process.env.SVC_STATE_DIR || join(homedir(), '.svc-sdk'), 'keys');
}

/** The id of a public key: the first 16 hex characters of SHA-256 of its SPKI DER (as `openssl pkey -pubout`). */
export function idOfKey(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/** Whether the key is of a kind a package can be signed with: Ed25519, or ECDSA on P-256. */
const supported = (key: KeyObject) =>
  key.asymmetricKeyType === 'ed25519' ||
  (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1');

/** A key's kind as a person names it: "an RSA key", "an ECDSA key on P-384" (the curve is what is refused there). */
function keyKind(key: KeyObject): string {
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve ?? 'another curve';
    return `an ECDSA key on ${{ secp384r1: 'P-384', secp521r1: 'P-521' }[curve] ?? curve}`;
  }
  const kinds: Record<string, string> = {
    rsa: 'an RSA key',
    'rsa-pss': 'an RSA-PSS key',
    dsa: 'a DSA key',
    ed448: 'an Ed448 key',
    x25519: 'an X25519 key (for key agreement, not signing)',
    x448: 'an X448 key (for key agreement, not signing)',
  };
  return kinds[key.asymmetricKeyType ?? ''] ?? `a ${key.asymmetricKeyType} key`;
}

/** What a command says when `--key -` has waited 5 s for standard input: that it waits, and for what. */
export const waitingForKey = (io: CliIo, command: string) => () =>
  writeLine(io.stderr, `svc ${command}: waiting for the key on standard input (--key -): pipe it in, or press Ctrl-C`);

/**
 * Reads a private key (PKCS#8 PEM, as `svc keygen` writes it) for signing. Resolves to the key and the warnings to
 * print (a file others can read), or to a sentence saying why it cannot sign (a public key, not a key, another
 * algorithm), naming the file and what to pass instead, `unreadable` when it is not there or cannot be read (a
 * device, a folder, more than 64 KiB). `file` `-` is standard input, read to its end: a CI step pipes its secret in,
 * and no file holds it (refused at a terminal; `waiting` is called when it says nothing for 5 s); a pipe
 * (`--key <(vault read …)`) is read as a file is.
 */
export async function readDeveloperKey(
  file: string,
  label = file,
  waiting?: () => void,
): Promise<{ key: DeveloperKey; warnings: string[] } | { problem: string; unreadable?: true }> {
  let text: string;
  let mode: number;
  try {
    [text, mode] = await Promise.all([
      readSmallText(file, undefined, waiting),
      file === '-' ? 0o600 : stat(file).then((s) => s.mode),
    ]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'TTY')
      return {
        problem: `${label}: standard input is a terminal; pipe the key in (printf '%s\\n' "$SVC_APP_KEY" | svc …), or pass its file`,
        unreadable: true,
      };
    return {
      problem: `${label} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}; pass the private key file \`svc keygen\` wrote`,
      unreadable: true,
    };
  }
  // A CI secret that is not set pipes nothing: missing input, not a key found invalid.
  if (file === '-' && text.trim() === '')
    return {
      problem: `${label} is empty (a secret or variable that is not set?): pipe the key in, such as printf '%s\\n' "$SVC_APP_KEY" | svc …`,
      unreadable: true,
    };
  if (/-----BEGIN (RSA )?PUBLIC KEY-----/.test(text) && !/PRIVATE KEY-----/.test(text))
    return {
      problem: `${label} is a public key; signing needs the private key (the .pem file \`svc keygen\` wrote, kept secret)`,
    };
  // PKCS#8's encrypted form, and the older one openssl writes for `-----BEGIN EC PRIVATE KEY-----` and RSA.
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|^Proc-Type: *4, *ENCRYPTED/m.test(text))
    return {
      // A command that runs as printed: the file as given (the label may be `--key <file>`), or standard input piped
      // to it; the copy readable by its owner alone (the umask for a new file, chmod for one that was there).
      problem: `${label} is encrypted with a passphrase; write an unencrypted copy, ${file === '-' ? 'piping the key to ' : ''}(umask 077; openssl pkey${file === '-' ? '' : ` -in ${shellPath(file)}`} -out unencrypted-key.pem && chmod 600 unencrypted-key.pem), or sign through your KMS`,
    };
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    return {
      problem: `${label} is not a private key in PEM; pass the file \`svc keygen\` wrote (PKCS#8, "-----BEGIN PRIVATE KEY-----")`,
    };
  }
  if (!supported(privateKey))
    return {
      problem: `${label} is ${keyKind(privateKey)}; a package is signed with Ed25519 (\`svc keygen\`) or ECDSA P-256`,
    };
  const publicKey = createPublicKey(privateKey);
  const warnings =
    (mode & 0o077) !== 0
      ? [`${label} can be read by other users (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${shellPath(file)}`]
      : [];
  return { key: { file: label, privateKey, publicKey, id: idOfKey(publicKey) }, warnings };
}

/**
 * The forms a file may hold a developer key in that `isPrivateKey` cannot tell from other bytes, since they are the
 * key's own bytes without a marker: its PKCS#8 DER and its private part (the Ed25519 seed, the P-256 scalar) as they
 * are, the DER in base64 and base64url (a key pasted into a script or a config without its PEM lines), and the
 * private part as a JSON Web Key writes it (`d`), in standard base64 and in hex (lowercase: `holdsKeyForm` compares hex
 * in any case). `svc pack` refuses a file holding one of its signing keys' forms, and `svc dev` will not serve one
 * holding the app's key's.
 */
export function privateKeyForms(privateKey: KeyObject): (string | Uint8Array)[] {
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const { d } = privateKey.export({ format: 'jwk' });
  // Padding is left off: a text may be written with or without it.
  const forms: (string | Uint8Array)[] = [der, der.toString('base64').replace(/=+$/, ''), der.toString('base64url')];
  if (d !== undefined) {
    const secret = Buffer.from(d, 'base64url');
    // In base64, the characters that hold its bits alone: also found where more bytes follow it in one text
    // (tweetnacl's 64-byte secret key, the seed and then the public key).
    const whole = Math.floor((secret.length * 8) / 6);
    forms.push(secret, d.slice(0, whole), secret.toString('base64').slice(0, whole), secret.toString('hex'));
  }
  return forms;
}

/**
 * The forms of the developer key `svc keygen` (or `svc init`) wrote for the app `id` in the keys folder, for `svc dev`
 * to serve no file holding them; none when that folder has no readable key of the id (the app's key kept elsewhere).
 */
export async function developerKeyForms(id: string): Promise<(string | Uint8Array)[]> {
  // Only an id names a file there (a manifest being edited may hold anything).
  if (!/^[0-9a-f]{16}$/.test(id)) return [];
  const read = await readDeveloperKey(join(keysDir(), `${id}.pem`));
  return 'key' in read && read.key.id === id ? privateKeyForms(read.key.privateKey) : [];
}

/** Reads a public key (or the public half of a private key) in PEM, for `--trust`; undefined when it is neither. */
export async function readPublicKey(file: string): Promise<KeyObject | string> {
  const text = await readSmallText(file).catch((error: NodeJS.ErrnoException) => error);
  if (typeof text !== 'string') return `${file} cannot be read (${text.code}); pass a public key file (PEM)`;
  try {
    const key = createPublicKey(text);
    return supported(key) ? key : `${file} is a ${key.asymmetricKeyType} key; trust an Ed25519 or ECDSA P-256 key`;
  } catch {
    return `${file} is not a key in PEM; pass the public key printed by \`svc keygen\` (-----BEGIN PUBLIC KEY-----)`;
  }
}

/** The git work tree `path` is inside (the folder holding `.git`), or undefined. */
export async function gitWorkTree(path: string): Promise<string | undefined> {
  for (let dir = path; ; dir = dirname(dir)) {
    if (
      await stat(join(dir, '.git')).then(
        () => true,
        () => false,
      )
    )
      return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
