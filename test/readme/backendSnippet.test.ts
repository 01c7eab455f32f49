// The backend guide's block (docs/backend.md) runs as written against svc dev's platform: the settings `svc dev
// --backend-env` writes are its environment, a real token exchanged for Alice is the request's, and its card lands in
// a room of the platform.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendEnv } from '../../src/cli/devCommand';
import { type DevPlatform, startDevPlatform } from '../../src/dev';

const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'docs/backend.md'), 'utf8');
const block = readme.match(/```ts\n(import \{ createServerClient, createTokenVerifier[\s\S]*?)```/)?.[1];

let platform: DevPlatform;
beforeAll(async () => {
  platform = await startDevPlatform({ dir: join(root, 'examples/polls') });
});
afterAll(() => platform?.close());

describe("the backend guide's block", () => {
  it('runs as written with the settings svc dev writes, and posts its card as the person the token names', async () => {
    expect(block, 'docs/backend.md has no block starting with the svc-sdk/server import').toBeDefined();
    // What `--backend-env` writes, as `node --env-file` would load it.
    const env = backendEnv(platform);
    Object.assign(process.env, env);
    const room = platform.rooms.find((r) => !r.is_encrypted)!;
    const token = await platform.appToken();
    // The names the block takes from its prose: the request, the room, and the app's own helpers.
    const g = globalThis as Record<string, unknown>;
    g.request = new Request('http://backend.test/polls', { headers: { authorization: `Bearer ${token}` } });
    g.roomId = room.room_id;
    g.deleteEverythingOf = async () => {};
    g.stopNotifying = async () => {};
    const { code } = await transform(block!, { loader: 'ts', format: 'esm' });
    const dir = mkdtempSync(join(tmpdir(), 'svc-readme-'));
    try {
      const file = join(dir, 'backend.mjs');
      const server = pathToFileURL(join(root, 'dist/server.js')).href;
      writeFileSync(
        file,
        `${code.replace("from 'svc-sdk/server'", `from '${server}'`).replace('from "svc-sdk/server"', `from '${server}'`)}
export { sub, scopes, actor, webhooks, api };`,
      );
      const ran = await import(pathToFileURL(file).href);
      const alice = platform.state.users.find((u) => u.id === 'alice')!;
      expect(ran.sub).toBe(alice.app_user_id);
      expect(ran.actor).toBeUndefined();
      expect(typeof ran.webhooks).toBe('function');
      expect(platform.cards(room.room_id).at(-1)).toMatchObject({
        card: { title: 'Lunch?', body: 'Vote in the poll' },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      for (const key of Object.keys(env)) delete process.env[key];
      for (const key of ['request', 'roomId', 'deleteEverythingOf', 'stopNotifying']) delete g[key];
    }
  });
});
