import { resolve } from 'node:path';
import { printable } from '../manifest/printable';
import { isPackageError, type PackageError, verifyPackage } from '../package';
import { readPackageFile } from '../package/readPackageFile';
import { EXIT, writeLine } from './CliIo';
import { defineCommand } from './defineCommand';
import { readPublicKey } from './developerKeys';
import { usageError } from './usageError';
import { shownPath } from './shownPath';

/**
 * `svc verify <file.swbn> [--trust <public key file>...] [--json]`: runs every check a host runs before it opens a
 * package and prints its id, version, signers and files. Exit 0 valid, 1 invalid, 2 unreadable or usage error.
 * @public
 */
export const VERIFY = defineCommand({
  name: 'verify',
  usage: ['<file.swbn>'],
  summary: `Check a signed package as a host does before running it.`,
  description: `Checks the integrity block and every signature, that the id is derived from a signing key (or that a signer is
a --trust key), the file paths, and that /manifest.json is valid, has the package's id, and names files that are
in the package. Prints the id, the version, the signers and the files.`,
  options: {
    trust: {
      type: 'string',
      multiple: true,
      value: 'file',
      help: `A public key (PEM) bound to the package's id after a key rotation (repeatable).`,
    },
    json: { type: 'boolean', help: `Print a JSON report instead of lines.` },
  },
  footer: `Exit codes: 0 valid, 1 invalid (a changed byte, a wrong key, a bad manifest), 2 unreadable file or
            usage error.
`,
  async run({ values, positionals }, io) {
    if (positionals.length !== 1)
      return usageError(io, 'verify', positionals.length ? 'one package at a time' : 'pass the .swbn file to check');
    const file = resolve(io.cwd, positionals[0]!);
    const label = shownPath(io.cwd, file);
    const trustedKeys: Uint8Array[] = [];
    for (const trust of values.trust ?? []) {
      const key = await readPublicKey(resolve(io.cwd, trust));
      if (typeof key === 'string') return usageError(io, 'verify', `--trust ${key}`);
      trustedKeys.push(new Uint8Array(key.export({ type: 'spki', format: 'der' })));
    }
    const refused = (error: PackageError) => {
      if (values.json)
        writeLine(io.stdout, JSON.stringify({ ok: false, code: error.code, message: error.message }, null, 2));
      // A manifest's issues are one to a line: the breaks between them are kept, as svc validate writes them.
      writeLine(
        io.stderr,
        `svc verify: ${label}: invalid (${error.code}): ${printable(error.message, { lines: true })}`,
      );
      return EXIT.invalid;
    };
    let bytes: Uint8Array;
    try {
      bytes = await readPackageFile(file);
    } catch (error) {
      if (isPackageError(error)) return refused(error);
      const code = (error as NodeJS.ErrnoException).code;
      const message = `${label} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}; pass the .swbn file \`svc pack\` wrote`;
      // A JSON reader gets its answer on stdout too, as for a package that fails a check.
      if (values.json) writeLine(io.stdout, JSON.stringify({ ok: false, code: 'unreadable', message }, null, 2));
      writeLine(io.stderr, `svc verify: ${message}`);
      return EXIT.usage;
    }
    try {
      const pkg = await verifyPackage(bytes, { trustedKeys });
      const signers = pkg.signers.map((s) => ({
        type: s.type,
        id: s.id,
        ...(s.id === pkg.id ? { derived: true } : {}),
        ...(s.trusted ? { trusted: true } : {}),
      }));
      const files = [...pkg.files.values()].map((f) => ({ path: f.path, type: f.contentType, bytes: f.body.length }));
      if (values.json) {
        writeLine(io.stdout, JSON.stringify({ ok: true, id: pkg.id, version: pkg.version, signers, files }, null, 2));
        return EXIT.ok;
      }
      // What the package says is written escaped: an escape sequence in a name or a content type could otherwise
      // erase a "signed by" line above it.
      writeLine(
        io.stdout,
        `${label}: valid: ${printable(pkg.manifest.name)} ${pkg.version}, id ${pkg.id}, ${bytes.length} bytes`,
      );
      for (const s of signers)
        writeLine(
          io.stdout,
          `  signed by ${s.type} key ${s.id}${s.derived ? ' (the id is derived from it)' : ''}${s.trusted ? ' (trusted)' : ''}`,
        );
      for (const f of files) writeLine(io.stdout, `  ${printable(f.path)}  ${printable(f.type)}  ${f.bytes} bytes`);
      return EXIT.ok;
    } catch (error) {
      if (!isPackageError(error)) throw error;
      return refused(error);
    }
  },
});
