import { generateKeyPairSync } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { EXIT, writeLine } from './CliIo';
import { defineCommand } from './defineCommand';
import { gitWorkTree, idOfKey, keysDir } from './developerKeys';
import { usageError } from './usageError';

/** A new developer key, as written to its file. */
export interface NewKey {
  file: string;
  id: string;
  publicPem: string;
}

/** Why no key was written: refused (a key is there, a git work tree), or `unwritable` (the folder or the disk). */
interface KeyRefusal {
  problem: string;
  unwritable?: true;
}

/**
 * Makes a key pair and writes the private key (PKCS#8 PEM, mode 600, never over an existing file) to `out`, or to
 * `<keys folder>/<id>.pem`. Refuses a default location inside a git work tree. Resolves to the key, or to why
 * nothing was written (a sentence, and whether the output could not be written, which the CLI exits 2 for).
 */
export async function writeNewKey(options: { out?: string; type?: 'ed25519' | 'p256' }): Promise<NewKey | KeyRefusal> {
  const { privateKey, publicKey } =
    options.type === 'p256' ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) : generateKeyPairSync('ed25519');
  const id = idOfKey(publicKey);
  const file = options.out ?? join(keysDir(), `${id}.pem`);
  if (!options.out) {
    const tree = await gitWorkTree(dirname(file));
    if (tree)
      return {
        problem: `the keys folder ${dirname(file)} is inside the git work tree ${tree}, where a key could be committed; set SVC_STATE_DIR to a folder outside it, or pass --out <file>`,
      };
  }
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const folder = await mkdir(dirname(file), { recursive: true, mode: 0o700 }).catch(
    (error: NodeJS.ErrnoException) => error,
  );
  // The key not written for its folder or its disk, and where to write it instead (a CI job without a writable home
  // has the two); a file holding a part of the path (`--out afile/key.pem`) is said as such.
  const cannotWrite = (error: NodeJS.ErrnoException, notDir: boolean): KeyRefusal => ({
    unwritable: true,
    problem: `${file} cannot be written (${notDir ? 'ENOTDIR: a part of its folder is a file, not a folder' : error.message}): ${options.out ? 'choose another --out' : 'pass --out <file>, or set SVC_STATE_DIR to a folder you can write to'}`,
  });
  if (folder instanceof Error) return cannotWrite(folder, folder.code === 'EEXIST' || folder.code === 'ENOTDIR');
  try {
    // `wx`: never replace a key; a lost key is a lost app id.
    await writeFile(file, pem, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST')
      return {
        problem: `${file} already exists; a key is never overwritten (it is the app's id): choose another --out`,
      };
    return cannotWrite(error as NodeJS.ErrnoException, code === 'ENOTDIR');
  }
  return { file, id, publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

/**
 * `svc keygen [--out <file>] [--type ed25519|p256]`: makes a developer key, prints its id and public key (never the
 * private key). Exit 0 written, 1 refused (the file exists, or the default folder is in a git work tree), 2 a key that
 * cannot be written.
 * @public
 */
export const KEYGEN = defineCommand({
  name: 'keygen',
  usage: [''],
  summary: `Make a developer key (the app id is derived from it).`,
  description: `Makes an Ed25519 key pair and writes the private key (PKCS#8 PEM, mode 600) to
$SVC_STATE_DIR/keys/<id>.pem (default ~/.svc-sdk/keys/<id>.pem), outside your projects. Prints the id derived
from it and the public key; never the private key. Each app has its own key: the id is the key's.`,
  options: {
    out: { type: 'string', value: 'file', help: `Write the key here instead (even inside a git work tree).` },
    type: { type: 'string', value: 'ed25519|p256', help: `The key type (default ed25519; p256 for KMS or HSM keys).` },
  },
  footer: `Exit codes: 0 written, 1 refused (the file exists, or the default folder is in a git work tree),
            2 usage error, or a key that cannot be written (a folder that cannot be made or written to).

Recompute the id with openssl:
  openssl pkey -in <key.pem> -pubout -outform DER | sha256sum | cut -c1-16
`,
  async run({ values, positionals }, io) {
    if (positionals.length > 0) return usageError(io, 'keygen', `takes no argument; got ${positionals.join(' ')}`);
    const type = values.type ?? 'ed25519';
    if (type !== 'ed25519' && type !== 'p256')
      return usageError(io, 'keygen', `--type ${type} is not a key type; write ed25519 (default) or p256`);
    const made = await writeNewKey({ type, ...(values.out ? { out: resolve(io.cwd, values.out) } : {}) });
    if ('problem' in made) {
      writeLine(io.stderr, `svc keygen: ${made.problem}`);
      return made.unwritable ? EXIT.usage : EXIT.invalid;
    }
    const label = values.out ? relative(io.cwd, made.file) || made.file : made.file;
    const tree = values.out ? await gitWorkTree(dirname(made.file)) : undefined;
    if (tree) writeLine(io.stderr, `svc keygen: ${label} is inside the git work tree ${tree}; add it to .gitignore`);
    writeLine(io.stdout, `id ${made.id}`);
    writeLine(
      io.stdout,
      `private key ${label} (mode 600; back it up, never commit it: losing it loses the app's updates)`,
    );
    io.stdout.write(made.publicPem);
    return EXIT.ok;
  },
});
