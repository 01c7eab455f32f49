// schema/token-vectors.json, the vectors a backend in any language checks its token verification against, run through
// svc-sdk/server's createTokenVerifier with its defaults: the key set served over HTTP on loopback, the clock the
// vectors' `now` (only Date is faked, so the sockets and timers are real). Every valid vector resolves its identity,
// every invalid one fails for its reason.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenVectors, TOKEN_VECTORS_FILE } from '../../scripts/tokenVectors';
import { createTokenVerifier } from '../../src/server';

const committed = readFileSync(fileURLToPath(new URL(`../../${TOKEN_VECTORS_FILE}`, import.meta.url)), 'utf8');
const file = JSON.parse(committed) as ReturnType<typeof createTokenVectors>;
const { verifier: held, vectors } = file;

let server: Server;
let origin = '';
/** The paths of the key set requests the server answered. */
const fetched: string[] = [];
/** The key set the server answers with: the vectors' own, unless a test rotates it. */
let jwks: { keys: object[] } = file.jwks;

beforeAll(async () => {
  server = createServer((req, res) => {
    fetched.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(held.now * 1000);
  fetched.length = 0;
  jwks = file.jwks;
});
afterEach(() => vi.useRealTimers());

/** A verifier with the vectors' settings and every default; its key set URL (https) is answered on loopback. */
const verifier = () =>
  createTokenVerifier({
    authUrl: held.auth_url,
    realm: held.realm,
    audience: held.audience,
    fetch: (input, init) => fetch(String(input).replace(new URL(held.jwks_uri).origin, origin), init),
  });

describe('schema/token-vectors.json', () => {
  it('is what its generator writes (npm run schema:token-vectors if this fails)', () => {
    expect(committed).toBe(`${JSON.stringify(createTokenVectors(), null, 2)}\n`);
  });

  it('holds the verifier’s own settings, and covers every algorithm, an agent and every kind of refusal', () => {
    const v = verifier();
    expect(v.issuer).toBe(held.issuer);
    expect(held.jwks_uri).toBe(`${held.issuer}/protocol/openid-connect/certs`);
    const algs = vectors
      .filter((t) => t.valid)
      .map((t) => JSON.parse(Buffer.from(t.token.split('.')[0]!, 'base64url').toString()).alg);
    expect(new Set(algs)).toEqual(new Set(held.algorithms));
    expect(vectors.some((t) => t.expect?.actor)).toBe(true);
    expect(new Set(vectors.filter((t) => !t.valid).map((t) => t.reason))).toEqual(
      new Set([
        'bad-signature',
        'algorithm-not-allowed',
        'unknown-key',
        'wrong-issuer',
        'wrong-audience',
        'missing-claim',
        'expired',
        'invalid-claim',
        'malformed',
      ]),
    );
  });

  for (const t of vectors)
    it(`${t.valid ? 'verifies' : `refuses (${t.reason})`}: ${t.name}`, async () => {
      const verified = verifier().verify(t.token);
      if (!t.valid) {
        await expect(verified).rejects.toMatchObject({ name: 'SvcTokenError', reason: t.reason });
        return;
      }
      const { sub, scopes, actor } = await verified;
      expect({ sub, scopes, ...(actor ? { actor } : {}) }).toEqual(t.expect);
    });

  it('fetches the key set again once on an unknown kid, at most every 30 s, as unknown_kid says', async () => {
    const [valid, unknown] = [vectors[0]!, vectors.find((t) => t.reason === 'unknown-key')!];
    const v = verifier();
    await v.verify(valid.token);
    expect(fetched).toEqual([new URL(held.jwks_uri).pathname]);
    // Within 30 s of the fetch, an unknown kid is refused without another.
    await expect(v.verify(unknown.token)).rejects.toMatchObject({ reason: 'unknown-key' });
    expect(fetched).toHaveLength(1);
    vi.setSystemTime((held.now + 31) * 1000);
    await expect(v.verify(unknown.token)).rejects.toMatchObject({ reason: 'unknown-key' });
    expect(fetched).toHaveLength(2);
    await expect(v.verify(unknown.token)).rejects.toMatchObject({ reason: 'unknown-key' });
    expect(fetched).toHaveLength(2);
  });
});
