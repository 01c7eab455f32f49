// svc-sdk/server throughput against bare baselines in the same run (dist/server.js; build first):
// - webhook signature checks/s: verifySignature() vs a bare Web Crypto HMAC verify of the same base, key imported;
// - token verifications/s with warm keys: the verifier vs bare jose.jwtVerify with the same key set and options.
// `node scripts/bench/server.mjs [--quick]`. Prints one table; the ratio is svc's cost over the baseline's (the
// median of per-round ratios; higher is slower).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';

const root = resolve(import.meta.dirname, '../..');
const { createTokenVerifier, signRequest, verifySignature } = await import(
  pathToFileURL(resolve(root, 'dist/server.js')).href
);
const quick = process.argv.includes('--quick');
const seconds = quick ? 0.3 : 2;

const rounds = quick ? 2 : 7;

async function rate(fn, ms) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 50; i++) await fn();
    n += 50;
  }
  return n / ((performance.now() - start) / 1000);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Alternates baseline and svc in short rounds, so drift in the machine's speed hits both alike; reports the median
// of each and the median of the per-round cost ratios.
async function compare(raw, ours) {
  // Warm-up.
  for (let i = 0; i < 500; i++) {
    await raw();
    await ours();
  }
  const r = [];
  const o = [];
  for (let i = 0; i < rounds; i++) {
    r.push(await rate(raw, (seconds * 1000) / rounds));
    o.push(await rate(ours, (seconds * 1000) / rounds));
  }
  return { raw: median(r), ours: median(o), ratio: median(r.map((x, i) => x / o[i])) };
}

export async function benchServer() {
  const secret = 'bench-signing-secret-0123456789';
  const body = JSON.stringify({
    event: 'user.deprovisioned',
    occurred_at: new Date().toISOString(),
    mini_app_id: '0123456789abcdef',
    app_user_id: 'a'.repeat(64),
    tenant_id: 't-1',
  });
  const headers = await signRequest({ body, secret, miniAppId: '0123456789abcdef' });
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  const mac = Uint8Array.from(headers['X-Svc-Signature'].slice(3).match(/../g), (h) => Number.parseInt(h, 16));
  const stamp = headers['X-Svc-Request-Timestamp'];
  // The least any receiver does: build the signing base from the body it received, and verify it.
  const bare = async () => crypto.subtle.verify('HMAC', key, mac, enc.encode(`v0:${stamp}:${body}`));
  const webhook = await compare(bare, () => verifySignature({ body, headers }, { secrets: [secret] }));

  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });
  const issuer = 'http://127.0.0.1:1/realms/acme';
  const token = await new SignJWT({ scope: 'a b' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer)
    .setSubject('au')
    .setAudience('polls')
    .setExpirationTime('1h')
    .sign(privateKey);
  const options = {
    issuer,
    audience: 'polls',
    algorithms: ['ES256'],
    clockTolerance: 5,
    requiredClaims: ['exp', 'sub', 'iss', 'aud'],
  };
  const verifier = createTokenVerifier({ authUrl: 'http://127.0.0.1:1', realm: 'acme', audience: 'polls', keys: jwks });
  const tokens = await compare(
    () => jwtVerify(token, jwks, options),
    () => verifier.verify(token),
  );
  return [
    { what: 'webhook signature check', baseline: 'bare Web Crypto HMAC verify of the same body', ...webhook },
    { what: 'token verification (warm keys)', baseline: 'bare jose.jwtVerify', ...tokens },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchServer();
  console.log(
    '\n| svc-sdk/server | baseline | ops/s (svc) | ops/s (baseline) | cost vs baseline |\n|---|---|--:|--:|--:|',
  );
  for (const r of rows)
    console.log(
      `| ${r.what} | ${r.baseline} | ${Math.round(r.ours).toLocaleString('en')} | ${Math.round(r.raw).toLocaleString('en')} | ${r.ratio.toFixed(2)}x |`,
    );
}
