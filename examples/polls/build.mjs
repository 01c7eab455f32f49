// Builds the Team Polls page (src/main.ts and the svc client) into dist/app.js, one module the package serves
// from its own origin (the CSP allows scripts from 'self' only). POLLS_API is the backend's base URL.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds dist/app.js (or `outfile`) for a backend at `api`. */
export async function buildPollsApp({ api = 'https://api.polls.example', outfile = join(here, 'dist/app.js') } = {}) {
  await build({
    entryPoints: [join(here, 'src/main.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { POLLS_API: JSON.stringify(api) },
    // The repository's build of the client, as an app gets it from node_modules/svc-sdk.
    alias: { 'svc-sdk': join(here, '../../dist/index.js') },
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPollsApp({ api: process.argv[2] });
