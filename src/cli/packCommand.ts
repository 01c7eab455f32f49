import { access, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { EXIT, plural, writeLine } from './CliIo';
import { defineCommand } from './defineCommand';
import { type DeveloperKey, keysDir, readDeveloperKey, waitingForKey } from './developerKeys';
import { locatePackage } from './locateApp';
import { exitOfUnread, readJsonFile } from './readJsonFile';
import { usageError } from './usageError';
import { outFileProblem } from './outFileProblem';
import { replaceFile } from './replaceFile';
import { appSlug } from '../manifest/appSlug';
import { shownPath } from './shownPath';

/** The package's file name: the app's name as the MCP server's name has it ({@link appSlug}), then its version. */
const packageName = (manifest: { name: string; id: string; version: string }) =>
  `${appSlug(manifest)}-${manifest.version}.swbn`;

/**
 * `svc pack [dir | manifest.json] --key <file> [--key <file>...] [--out <file>] [--rotated]`: validates the app
 * folder, signs it with every key and writes `<name>-<version>.swbn`. Exit 0 written, 1 refused (nothing written), 2 usage error.
 * @public
 */
export const PACK = defineCommand({
  name: 'pack',
  usage: ['[dir | manifest.json]'],
  summary: `Pack and sign an app folder into <name>-<version>.swbn.`,
  description: `Validates the app folder (default .; or name its manifest.json) as \`svc validate <dir>\` does (manifest,
entry, icons, CSP), checks that the manifest's id is derived from a signing key, bundles every file at its path
(dot-files and .swbn files left out) and signs it with every --key. Writes <name>-<version>.swbn in the working
directory. The same folder and Ed25519 keys give the same bytes.`,
  options: {
    key: {
      type: 'string',
      multiple: true,
      value: 'file',
      help: `A private key to sign with (repeatable: to rotate a key, sign one release with the old
and the new key); - reads it from standard input (a CI secret, never written to disk).
Default: $SVC_STATE_DIR/keys/<the manifest's id>.pem.`,
    },
    out: { type: 'string', value: 'file', help: `Write the package here instead.` },
    rotated: {
      type: 'boolean',
      help: `The id is bound to a key it was not derived from (the store moved it at a rotation):
sign with the new key alone.`,
    },
  },
  footer: `Exit codes: 0 written, 1 refused (invalid folder, wrong key, too large: nothing written), 2 usage error,
no folder with a manifest.json there, or --out that cannot be written.

Example:
  $ svc pack dist
  wrote team-polls-1.2.0.swbn (3 files, 48213 bytes), id 3f1c0a9b7d2e4c68, version 1.2.0, signed by 3f1c0a9b7d2e4c68
`,
  oneDirectory: true,
  async run({ values, dir: given }, io) {
    const refuse = (lines: string[], exit: number = EXIT.invalid) => {
      for (const line of lines) writeLine(io.stderr, `svc pack: ${line}`);
      writeLine(io.stderr, 'svc pack: nothing written.');
      return exit;
    };
    const located = await locatePackage(given, (path) => shownPath(io.cwd, path), 'pack');
    // A folder that is not there is unreadable input, as for every command.
    if (!located.ok) return refuse([located.message], EXIT.usage);
    const { dir } = located;
    // `-` is standard input, as a CI step pipes its secret in.
    let keyFiles = (values.key ?? []).map((file) => (file === '-' ? file : resolve(io.cwd, file)));
    if (keyFiles.length === 0) {
      const manifestFile = join(dir, 'manifest.json');
      const read = await readJsonFile(manifestFile, shownPath(io.cwd, manifestFile));
      // Without a manifest there is no id to find the key by: that is the problem to report, not the key.
      if (!read.ok) return refuse([read.message], exitOfUnread(read));
      const id = (read.value as { id?: unknown }).id;
      // The key is found by the id: one that is no id is the manifest's problem to name, not a missing --key.
      if (typeof id !== 'string' || !/^[0-9a-f]{16}$/.test(id))
        return refuse([
          `$.id is ${id === undefined ? 'missing' : JSON.stringify(id)}: an app's id is 16 lowercase hex characters, derived from its key. Pass --key <file> (the key of the id), or write the id that svc keygen printed.`,
        ]);
      const found = join(keysDir(), `${id}.pem`);
      if (
        !(await access(found).then(
          () => true,
          () => false,
        ))
      )
        return usageError(
          io,
          'pack',
          `no --key given and no ${found}; pass --key <file>, the private key of the manifest's id (svc keygen makes one)`,
        );
      keyFiles = [found];
    }
    if (new Set(keyFiles).size !== keyFiles.length) return usageError(io, 'pack', 'the same --key is given twice');
    const keys: DeveloperKey[] = [];
    const problems: string[] = [];
    let unreadable = false;
    for (const file of keyFiles) {
      const label = file === '-' ? 'the key on standard input' : shownPath(io.cwd, file);
      const read = await readDeveloperKey(file, label, waitingForKey(io, 'pack'));
      if ('problem' in read) {
        problems.push(read.problem);
        unreadable ||= read.unreadable === true;
      } else {
        for (const warning of read.warnings) writeLine(io.stderr, `svc pack: warning: ${warning}`);
        keys.push(read.key);
      }
    }
    // A key file that is not there exits 2, as unreadable input does for every command.
    if (problems.length > 0) return refuse(problems, unreadable ? EXIT.usage : EXIT.invalid);
    // wbn and wbn-sign are loaded when a package is made, not when any other command of the CLI starts.
    const { packApp } = await import('./packApp');
    const packed = await packApp({ dir, keys, rotated: values.rotated === true });
    if (!packed.ok) return refuse(packed.problems);
    for (const warning of packed.warnings) writeLine(io.stderr, `svc pack: warning: ${warning}`);
    const out = resolve(io.cwd, values.out ?? packageName(packed.manifest));
    const outProblem = await outFileProblem(out, keyFiles, shownPath(io.cwd, out));
    if (outProblem) return refuse([outProblem.message], outProblem.unwritable ? EXIT.usage : EXIT.invalid);
    // An older package of the same name may be the one published: replacing it with other bytes loses that artefact.
    const before = await readFile(out).catch(() => undefined);
    const unwritten = await replaceFile(out, packed.bytes);
    if (unwritten)
      return refuse(
        [`--out ${shownPath(io.cwd, out)} cannot be written (${unwritten}): choose a folder you can write to.`],
        EXIT.usage,
      );
    const signers = [...new Set(keys.map((k) => k.id))].join(' and ');
    writeLine(
      io.stdout,
      `wrote ${shownPath(io.cwd, out)} (${plural(packed.files.length, 'file')}, ${packed.bytes.length} bytes), id ${packed.manifest.id}, version ${packed.manifest.version}, signed by ${signers}`,
    );
    // Named up to 20 (a folder copied from macOS holds a `._` file beside each file: thousands, one line each).
    const { skipped } = packed;
    if (skipped.length > 0)
      writeLine(
        io.stderr,
        `svc pack: left out ${skipped.slice(0, 20).join(', ')}${skipped.length > 20 ? ` and ${skipped.length - 20} more (dot-files, earlier packages)` : ''}`,
      );
    if (before && !Buffer.from(packed.bytes).equals(before))
      writeLine(
        io.stderr,
        `svc pack: warning: replaced ${shownPath(io.cwd, out)}, which held another package: if that one is published, it is the copy you had (a store takes a version once; a changed app needs a higher version).`,
      );
    return EXIT.ok;
  },
});
