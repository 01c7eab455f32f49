// packApp on folders a developer gives it by mistake: the project's folder, with its dependencies, is packed but
// said to be that, since the app's own files are the build's.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DeveloperKey, idOfKey } from '../../src/cli/developerKeys';
import { listAppFiles } from '../../src/cli/listAppFiles';
import { packApp } from '../../src/cli/packApp';
import { packedSizeOf } from '../../src/cli/packageOverLimit';
import { writeAppDir } from '../dev/appDir';

/** An app folder that packs as it is (its icons written), and a key whose id it has. */
async function appWithIcons(): Promise<{ dir: string; key: DeveloperKey }> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const key: DeveloperKey = { file: 'key.pem', privateKey, publicKey, id: idOfKey(publicKey) };
  const dir = await writeAppDir((m) => {
    m.id = key.id;
  });
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  for (const icon of manifest.icons) {
    await mkdir(dirname(join(dir, icon.src)), { recursive: true });
    await writeFile(join(dir, icon.src), 'png');
  }
  return { dir, key };
}

describe('packApp', () => {
  it("warns when the folder holds node_modules/: it is the project's folder, not the app's build", async () => {
    const { dir, key } = await appWithIcons();
    const clean = await packApp({ dir, keys: [key] });
    expect(clean.ok && clean.warnings.filter((w) => w.includes('node_modules'))).toEqual([]);
    for (const file of ['node_modules/left-pad/index.js', 'node_modules/left-pad/package.json']) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), '{}');
    }
    const packed = await packApp({ dir, keys: [key] });
    expect(packed.ok && packed.warnings).toContain(
      "the package holds node_modules/ (2 files): this looks like the project's folder, not the app's; pack the folder your build writes (such as dist), which holds the app's own files",
    );
  });

  it('names the character a file name cannot hold, and writes a control character as its escape', async () => {
    const { dir, key } = await appWithIcons();
    for (const name of ['café.js', 'x\u001b[31m.js', 'r\u202egnp.js', 'a\u200bb.js', 'c\u00add.js'])
      await writeFile(join(dir, name), '');
    const packed = await packApp({ dir, keys: [key] });
    expect(packed.ok).toBe(false);
    const problems = packed.ok ? [] : packed.problems;
    const note =
      "which is not an ASCII letter, digit or one of -._~!$&'()*+,;=@[] (no spaces, accents, :, %, ? or #); rename it";
    expect(problems).toContain(`café.js cannot be packed: it holds "é" (U+00E9), ${note}`);
    // No line of the terminal takes an escape sequence or a reordering of what follows from a file name.
    expect(problems).toContain(`x\\u001b[31m.js cannot be packed: it holds "\\u001b" (U+001B), ${note}`);
    // The quote of the character too: an override there would reverse the rest of the line, a zero-width space show
    // nothing.
    expect(problems).toContain(`r\\u202egnp.js cannot be packed: it holds "\\u202e" (U+202E), ${note}`);
    expect(problems).toContain(`a\\u200bb.js cannot be packed: it holds "\\u200b" (U+200B), ${note}`);
    expect(problems).toContain(`c\\u00add.js cannot be packed: it holds "\\u00ad" (U+00AD), ${note}`);
  });

  it("counts the package it writes to the byte from the files' paths and sizes, as svc validate does", async () => {
    const { dir, key } = await appWithIcons();
    // Sizes, path lengths, types and counts on each side of where a CBOR head grows (24, 256, 65,536).
    const shapes: [count: number, size: number, name: (i: number) => string][] = [
      [1, 0, () => 'empty.txt'],
      [3, 23, (i) => `f${i}.js`],
      [2, 24, (i) => `${'p'.repeat(20)}${i}.wasm`],
      [20, 255, (i) => `assets/${'q'.repeat(200)}${i}.json`],
      [2, 65_535, (i) => `d${i}.bin`],
      [2, 70_000, (i) => `e${i}.unknown-type`],
    ];
    for (const [count, size, name] of shapes) {
      for (let i = 0; i < count; i++) {
        await mkdir(dirname(join(dir, name(i))), { recursive: true });
        await writeFile(join(dir, name(i)), Buffer.alloc(size, 7));
      }
      const packed = await packApp({ dir, keys: [key] });
      expect(packed.ok || packed.problems).toBe(true);
      const { files } = await listAppFiles(dir);
      expect(packedSizeOf(files), `${files.length} files`).toBe(packed.ok && packed.bytes.length);
    }
  });
});
