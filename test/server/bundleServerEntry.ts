// svc-sdk/server's entry as one ES module, as a web-standard runtime (Deno, workerd) loads it: bundled from the
// source, platform-neutral, so a Node built-in it reached for would fail there.
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');

/** Writes the bundled entry to `outfile`. */
export async function bundleServerEntry(outfile: string): Promise<void> {
  await build({
    entryPoints: [join(root, 'src/server/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile,
    logLevel: 'silent',
  });
}
