// svc-sdk/server on a web-standard runtime: Deno (installed from npm as a devDependency). Deno has no Node
// globals unless asked, so it proves the entry needs only Web Crypto, fetch and Request/Response, as in workers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleServerEntry } from './bundleServerEntry';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const deno = join(root, 'node_modules/.bin/deno');
const dir = mkdtempSync(join(tmpdir(), 'svc-deno-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = `
import { createTokenVerifier, createWebhookHandler, signRequest, verifySignature } from './server.mjs';
const out = {};
const body = JSON.stringify({ event: 'user.deprovisioned', occurred_at: '2026-11-22T10:00:00Z', mini_app_id: 'm', app_user_id: 'au', tenant_id: 't' });
const headers = await signRequest({ body, secret: 'deno-secret', miniAppId: 'm' });
out.verified = typeof (await verifySignature({ body, headers }, { secrets: ['deno-secret'] })) === 'number';
const deleted = [];
const handle = createWebhookHandler({ secrets: ['deno-secret'], on: { 'user.deprovisioned': (e) => { deleted.push(e.app_user_id); } } });
out.status = (await handle(new Request('http://localhost/hooks', { method: 'POST', headers, body }))).status;
out.duplicate = (await (await handle(new Request('http://localhost/hooks', { method: 'POST', headers, body }))).json()).duplicate;
out.deleted = deleted;
// A real ES256 JWT made with Deno's Web Crypto, verified by the SDK.
const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const enc = (o) => b64(new TextEncoder().encode(JSON.stringify(o)));
const iss = 'http://127.0.0.1:1/realms/acme';
const input = enc({ alg: 'ES256', typ: 'JWT' }) + '.' + enc({ sub: 'au', iss, aud: 'polls', exp: Math.floor(Date.now() / 1000) + 60, scope: 'a b', act: { sub: 'agent' } });
const sig = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(input));
const verifier = createTokenVerifier({ authUrl: 'http://127.0.0.1:1', realm: 'acme', audience: 'polls', keys: async () => pair.publicKey });
const who = await verifier.verify(input + '.' + b64(sig));
out.token = { sub: who.sub, scopes: who.scopes, actor: who.actor };
out.runtime = typeof Deno === 'object' ? 'deno' : 'other';
console.log(JSON.stringify(out));
`;

describe('svc-sdk/server under Deno', () => {
  it.skipIf(!existsSync(deno))('signs, verifies, handles a webhook and verifies a JWT', async () => {
    await bundleServerEntry(join(dir, 'server.mjs'));
    writeFileSync(join(dir, 'run.mjs'), script);
    const run = spawnSync(deno, ['run', '--quiet', '--no-prompt', '--allow-read', join(dir, 'run.mjs')], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(dir, 'cache') },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout.trim())).toEqual({
      verified: true,
      status: 200,
      duplicate: true,
      deleted: ['au'],
      token: { sub: 'au', scopes: ['a', 'b'], actor: { sub: 'agent' } },
      runtime: 'deno',
    });
  });
});
