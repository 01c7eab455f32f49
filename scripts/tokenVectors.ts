/**
 * Writes schema/token-vectors.json: test vectors for verifying the tokens a mini app sends its backend, for a backend
 * in any language. The tokens are signed here with node:crypto, not with svc-sdk/server or jose, so the SDK's tests
 * that run them check its verifier against an independent computation. ES256 and PS256 are randomised in node:crypto,
 * so those two are computed below with a nonce or salt derived from the message (the file comes out the same on every
 * run), and node:crypto verifies each of their signatures. test/server/tokenVectors.test.ts fails while the committed
 * file is stale.
 *
 *   npm run schema:token-vectors
 */
import {
  constants,
  createECDH,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  privateEncrypt,
  sign,
  verify,
} from 'node:crypto';
import { writeFileSync } from 'node:fs';

/** Where the vectors live, relative to the repository root. */
export const TOKEN_VECTORS_FILE = 'schema/token-vectors.json';

const NOW = 1767225600; // 2026-01-01T00:00:00Z
const AUTH_URL = 'https://auth.svc.example';
const REALM = 'acme';
const ISSUER = `${AUTH_URL}/realms/${REALM}`;
const AUDIENCE = 'polls-api';
const TOLERANCE = 5;

// Fixed test keys, published here on purpose: the file must come out the same on every run, and only their public
// halves are written to it. Never use them for anything else.
const EC_D = 'a621e408eae2b4e69385baa4da7a5846417133d94e8d146be9a3108f4385c3ff';
/** A P-256 key the realm does not publish: the forger's, and a key of a rotation not yet seen. */
const OTHER_EC_D = 'ecdc0538c6ba85387e8827c435c48143f17dca6d25c5fc5bd0da359a27a94195';
const ED25519_SEED = 'ed48e9121cf81db2d526d1f05936b586e09a4a0e70f0004054272026bc6760a5';
const RSA_JWK = {
  kty: 'RSA',
  n: 'vx_NiDtU8oitxK_CpL_coDcCCb5tuiy_wBUFu2pGDAfeS-_kH4F8eDr4EQSSizUf1YH5QW5USIavSjTz8GIlM1w5u4mzJlnedak10Bw1KN6HnPSCSOBjiattIdoPboC0Blh-TZWMOjQEXVRTe33cJRgESngK5sFjA5Kxq1jl0LgDQgJ0lBuR3DH7vzKAlifJ2nNIvxV6wkUXDj5ZJ3D1C43YhwAFEKSarH_PnKwObPmr5p-y58gMo8nhtLU9peoEqhE3mqreAb3tGRRO1OvtTWUJoTi8cazfugrVPWRGTNRE2HuadX8rWw-pYfd2QMwTJjV0jM3OiNk00IM-vbGp_Q',
  e: 'AQAB',
  d: 'T13WjP8OfJTzjBzsuFuQM9wD9aXljQ1uJ0bTlYtBQVe3IVOiKM8tsAPU5cQ_Up2h9Zi-uEQnreJ4QlmQ_z7SceyXcOByy7dAIR4-YYiFLs6SBESpIbhEvXO5ovgZtmqt14DCGlfC3pyhP1x4Omz-kUzS41XMOR0Pj_lH3H7TGIPJkjBVj9Lxdw59vmx-1JLhOuuq1tKC-WfySh6zmDyrZEUOg4aqIZ4_A08lp-47JRUSoy6qebe9-9kvTKzdWbWBVSl61vqwJscb2vPGtDocZSr67NbJZG8rt5_KQf6C6GJSRWjgZTxjwoPkjMwskZw-8_p7Ri1kgGuJVXS1Q9Fy5Q',
  p: '6wCecxugqdk7ysb4EP9DQtJG-YlB2T6At1gouU91kXdk1kIbPMsd4V1XhQnX_bfvCkcIQcD1qLvC6vw_IHJ9-n3ck9Yjqh0uxGh-vxJmO18a-zSLMMpwc10ZdqRbSo1Y6pJFPKDN0raHEKWGGsMLPSjFAdohkO5jNhDUBR7oR1c',
  q: '0DOGt-Z50mLHCbnoTf91fBM8dnf9P14E7LcZuAwhK1Zfoohr_HweVUiqVAHzB-_z75eVbqVZAE3QbrPoNMmDxaruy73HVeSpBWVOjfaSEXiGWgR5fMK1FH0eM88ueDKumlhRknp3hil64ZfMIJ4TdT3B4N74tbCCc6T1whrQqMs',
  dp: 'kpOfQPKxgl8xkSgLYCanIE2h4VEAVm1KwZDmTbdHAIV0ysMO1BtotsGOrjdWljUcjs-BUen2D9mVGRZelXF0LEJGy5scQaXUHsOCktD6HPwUCy1ZyAPsobgnAr4_BsAk_qJfNxKhblVU50gm3hhbsTj1sFMK7qgSD43tgIgnnx8',
  dq: 'q0Rnounl9ooo_zg9_8OQSoOsbivgWHsoA-3PK1ZXBsZjn1kns6gKb895xedgm3vpJ4ODemRsJVLdjeNStfG7AyTMkS9JRb_2xiiDCUb2-4YwxuX9ZgLpYLRX3vikWl4ewXq7h4pUvjlrCx6K3Z4LlZs63Jeu8g8EEMt3GrhiQyc',
  qi: 'CDp-hw9W7vldXrubdg6zCmXja7GfPAiOB4_FNao7hRrSwOtFuRVt4JwsQd74Y2pDusUQGYFTjYrg3zID5iTxKyfroBk2xt0f0_ZP0E7esJRYpk4znmRWwCLM5OWjM8lVV0ukCncGXPPxtkBxrqbdweAe497adqsmhogkYj5-DR0',
};
/** A second RSA key, for PS256: one key, one algorithm. */
const PS256_JWK = {
  kty: 'RSA',
  n: 'irYKpa3KXZT9Gxw08sLt98ib2L6O9YGR9oqRkwuETgLktYfWtlXnpc4g5mUdo1icjS7v7yekSxx3dl4VnnYjLVlCs4suR72Qc340onHciNbA1izJ3dxKC6EHRH6l-5EY_4cDgfS_6UkZKpGcAscS4zJM0YHGSuVvzVSeOo8pjDCBXT7V4shg-eICV-zUseyLHJRhuFY8u1kMNz2lRIm35Z3qmFsz-TYIQgmWqWwZqu51URSKz2fnCxw243UjKVD08Oq7f8OOY4ouopAHw2UNaw3Gyq-cfExSvq7gzso9tUjj4gLii1Xmfo6QuMoR76kidAPSk2fLGrn9VgvjlCg13w',
  e: 'AQAB',
  d: 'O72_xC-fksKSaFSzsUKnPyrVhHo-FBrkBK0VmaFCMF8qpcyFey5wgIbQwKoYI7wMYPowOG54Yik2gnJvGTqEWAmzoqR1IEzSpAtdHAGyG_VyREwx_S3dbjjCaoupbTnG7Hb32cbRyOXEwwLHkKKwzc1iLHGaN7OtfV_ObiYunMO8-VLMOunQXtT7PKwIGpJiLKHNfiJ_QYUF4F6rjBKI9cwPYNOWu01QWLnX184OANJRr1vUJXgfOF2h1fVaMEmcImJCcvcS2Y09rFN6r6jqizSXfUBvQM3ea3Mx30eecfgn0fiwUtTKYFuUIxZuX66DWVhkmwR0ptDr5Lp7Tjx14Q',
  p: 'wDYRDK1eRKdTcS4EOc0fKWEDZ6CZsChKrMyYViA73WLiaomXy95f0Ycd-mYtl4fTEP5VDHAma8-1oSkFRXEKsUN92AJngGrqEK4tI60o6IUZwH55ZsMWlN0x55jl0CbHGOU3Hoy9o6SVcZLyDi8krspWvzF8-oHlSgnttkkvuSk',
  q: 'uL6y0tyDa-TNRiSHIrJ_YEESYa_VrXX572lxjvegUtgDoSwICBqChbCwJQSg0zrie_rUyy4mdzgE4n9dWDMdnEBw2oSMDYe5wT-ixLay5nrUkJM1reKX-RygNMaTdOOAmP6RqakcvVqZbq7BDiBuE6J1f1ETCF0jZn-ql8zi78c',
  dp: 'nLA2i-AUleDVm9EIbtoxSfkk3mhEgR8HaQBMOwGB68J9kp3h2bbI47TDEmoTRpDZ1eOPD1mpaH_lr6ASBP7W2ZSMVPf4ye3eK4ThlVDGpW5DhPFVJBlrIiWDVioFRf8mlLveiA_xVCKKFRDWNAvoWnjl6Gx-VnRnp0iauNvGhKk',
  dq: 'nOZAYzqqVriz6Y1eQ4aLDUlWfiZid_YJNV489mmx_Im-02Pc0l0JWtdLUbUTjTGmZhsKHCDuxDOMWnxG34BR9oD4F22YsGkDxm7wItbzKzFIVBzh6vLVlNjN6uR3GT-Z2NXjCc85PEu0oT7DcObz9bL0zRMi8eiABy4HyPJWDcM',
  qi: 'Hp_qWBmRghV_FLnu6KNAWnCfOE8HsuHdGNwLSTabW-57V-YF0gk_hZ6oGPafItOgt_JYFt7-Bwcgxyt2WVcUhM2Vjz7e00od3Z6DnqKvMPNmbZQc_VI14L7IAaL3OQSaHYcfguH5m9KyYFiMSQ2l5o7iffTIT4bMx7AcjSRzMrw',
};

const b64u = (data: Buffer | string) => Buffer.from(data).toString('base64url');

// P-256 (FIPS 186-4, D.1.2.3). node:crypto signs ECDSA with a random nonce, so the file would change on every run;
// this signs with a nonce derived from the key and the message instead, and node:crypto verifies each signature.
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const G: Point = [
  0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
];
type Point = [bigint, bigint] | null;

const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;
function modPow(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n;
  for (let b = mod(base, m), e = exponent; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) result = (result * b) % m;
  return result;
}
const inverse = (a: bigint, m: bigint) => modPow(a, m - 2n, m);

function add(a: Point, b: Point): Point {
  if (!a) return b;
  if (!b) return a;
  if (a[0] === b[0] && mod(a[1] + b[1], P) === 0n) return null;
  const slope =
    a[0] === b[0]
      ? mod((3n * a[0] * a[0] - 3n) * inverse(2n * a[1], P), P)
      : mod((b[1] - a[1]) * inverse(b[0] - a[0], P), P);
  const x = mod(slope * slope - a[0] - b[0], P);
  return [x, mod(slope * (a[0] - x) - a[1], P)];
}

function multiply(k: bigint, point: Point): Point {
  let result: Point = null;
  for (let addend = point, e = k; e > 0n; e >>= 1n, addend = add(addend, addend))
    if (e & 1n) result = add(result, addend);
  return result;
}

const toBigInt = (bytes: Buffer) => BigInt(`0x${bytes.toString('hex')}`);
const to32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

function signEs256(d: string, data: Buffer, publicKey: KeyObject): Buffer {
  const z = toBigInt(sha256(data));
  const k = mod(toBigInt(createHmac('sha256', Buffer.from(d, 'hex')).update(data).digest()), N - 1n) + 1n;
  const r = mod(multiply(k, G)![0], N);
  const s = mod(inverse(k, N) * (z + r * BigInt(`0x${d}`)), N);
  const signature = Buffer.concat([to32(r), to32(s)]);
  if (!verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature))
    throw new Error('an ES256 vector does not verify with node:crypto');
  return signature;
}

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** MGF1 with SHA-256 (RFC 8017, appendix B.2.1). */
function mgf1(seed: Buffer, length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let counter = 0; blocks.length * 32 < length; counter++) {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    blocks.push(sha256(seed, c));
  }
  return Buffer.concat(blocks).subarray(0, length);
}

// RSASSA-PSS (RFC 8017, section 8.1) with SHA-256 and a 32-byte salt. node:crypto draws the salt at random, so this
// encodes with a salt derived from the message, has node:crypto apply the private key to the encoding alone (no
// padding), and has it verify the result as PS256.
function signPs256(data: Buffer): Buffer {
  const key = createPrivateKey({ key: PS256_JWK, format: 'jwk' });
  const emLength = 256; // a 2048-bit modulus: emBits 2047, 256 bytes
  const salt = sha256(Buffer.from('token-vectors salt:'), data);
  const h = sha256(Buffer.alloc(8), sha256(data), salt);
  const db = Buffer.concat([Buffer.alloc(emLength - 32 - 32 - 2), Buffer.from([1]), salt]);
  const masked = Buffer.from(db.map((byte, i) => byte ^ mgf1(h, db.length)[i]!));
  masked[0]! &= 0x7f; // 8 * emLength - emBits = 1 leftmost bit cleared
  const signature = privateEncrypt(
    { key, padding: constants.RSA_NO_PADDING },
    Buffer.concat([masked, h, Buffer.from([0xbc])]),
  );
  const publicKey = createPublicKey(key);
  const options = { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
  if (!verify('sha256', data, options, signature)) throw new Error('a PS256 vector does not verify with node:crypto');
  return signature;
}

const ecKeys = (d: string) => {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(d, 'hex'));
  const point = ecdh.getPublicKey();
  const jwk = { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) };
  return { jwk, publicKey: createPublicKey({ key: jwk, format: 'jwk' }) };
};
const platformEc = ecKeys(EC_D);
const otherEc = ecKeys(OTHER_EC_D);
// PKCS #8 of an Ed25519 key is a fixed 16-byte prefix followed by the 32-byte seed (RFC 8410).
const ed25519 = createPrivateKey({
  key: Buffer.from(`302e020100300506032b657004220420${ED25519_SEED}`, 'hex'),
  format: 'der',
  type: 'pkcs8',
});
const rsa = createPrivateKey({ key: RSA_JWK, format: 'jwk' });

const KID = {
  es256: 'acme-es256-2026',
  eddsa: 'acme-eddsa-2026',
  rs256: 'acme-rs256-2026',
  ps256: 'acme-ps256-2026',
  unpublished: 'acme-es256-next',
};

/** How a vector's token is signed. */
type Signer = 'es256' | 'es256-unpublished' | 'eddsa' | 'rs256' | 'ps256' | 'hs256-public-key' | 'none';

function signature(signer: Signer, input: Buffer): Buffer {
  switch (signer) {
    case 'es256':
      return signEs256(EC_D, input, platformEc.publicKey);
    case 'es256-unpublished':
      return signEs256(OTHER_EC_D, input, otherEc.publicKey);
    case 'eddsa':
      return sign(null, input, ed25519);
    case 'rs256':
      return sign('sha256', input, rsa);
    case 'ps256':
      return signPs256(input);
    case 'hs256-public-key':
      // The classic confusion: the realm's public key, as PEM, used as an HMAC secret.
      return createHmac('sha256', platformEc.publicKey.export({ format: 'pem', type: 'spki' }))
        .update(input)
        .digest();
    case 'none':
      return Buffer.alloc(0);
  }
}

/** A compact JWS: header and payload as JSON (or the payload's exact text), signed over their base64url text. */
function jws(header: Record<string, unknown>, payload: Record<string, unknown> | { raw: string }, signer: Signer) {
  const body = 'raw' in payload ? payload.raw : b64u(JSON.stringify(payload));
  const input = `${b64u(JSON.stringify(header))}.${body}`;
  return `${input}.${b64u(signature(signer, Buffer.from(input)))}`;
}

const claims = (changes: Record<string, unknown> = {}) => {
  const all: Record<string, unknown> = {
    iss: ISSUER,
    sub: 'au-alice',
    aud: AUDIENCE,
    exp: NOW + 300,
    iat: NOW - 60,
    scope: 'svc.notifications',
    ...changes,
  };
  for (const key of Object.keys(all)) if (all[key] === undefined) delete all[key];
  return all;
};
const es256 = (payload: Record<string, unknown>) => jws({ alg: 'ES256', typ: 'JWT', kid: KID.es256 }, payload, 'es256');

/** What a verifier resolves for a valid token: the identity to act on, the scopes, the agent when one acts. */
interface Identity {
  sub: string;
  scopes: string[];
  actor?: { sub: string };
}

interface TokenVector {
  name: string;
  token: string;
  valid: boolean;
  /** For a valid vector: what verification resolves. */
  expect?: Identity;
  /** For an invalid one: svc-sdk/server's `SvcTokenError.reason`. */
  reason?: string;
  why: string;
}

const valid = (name: string, token: string, expect: Identity, why: string): TokenVector => ({
  name,
  token,
  valid: true,
  expect,
  why,
});
const refused = (name: string, token: string, reason: string, why: string): TokenVector => ({
  name,
  token,
  valid: false,
  reason,
  why,
});

const alice = { sub: 'au-alice', scopes: ['svc.notifications'] };

/** The vectors, positive and negative. */
export function createTokenVectors() {
  const good = es256(claims());
  const [goodHeader, goodPayload] = good.split('.');
  // Standard base64 of this payload has a '+' or a '/', which base64url has not.
  const plusPayload = Buffer.from(JSON.stringify(claims({ sub: 'au-~~~>>>?' }))).toString('base64');
  if (!/[+/]/.test(plusPayload)) throw new Error('the malformed payload vector needs a + or / in its base64');
  // One token per algorithm, each also sent with its payload changed after signing.
  const byAlgorithm = [
    valid('ES256, the algorithm the platform issues', good, alice, 'ECDSA on P-256 with SHA-256, r and s.'),
    valid(
      'EdDSA (Ed25519)',
      jws({ alg: 'EdDSA', typ: 'JWT', kid: KID.eddsa }, claims(), 'eddsa'),
      alice,
      'Any key of the set, by kid.',
    ),
    valid(
      'RS256',
      jws({ alg: 'RS256', typ: 'JWT', kid: KID.rs256 }, claims(), 'rs256'),
      alice,
      'RSASSA-PKCS1-v1_5 with SHA-256, a 2048-bit key.',
    ),
    valid(
      'PS256',
      jws({ alg: 'PS256', typ: 'JWT', kid: KID.ps256 }, claims(), 'ps256'),
      alice,
      'RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt.',
    ),
  ];
  const vectors: TokenVector[] = [
    ...byAlgorithm,
    valid(
      'ES256, an agent acting for the person',
      es256(claims({ scope: 'svc.notifications polls.vote', act: { sub: 'agent-7' } })),
      { sub: 'au-alice', scopes: ['svc.notifications', 'polls.vote'], actor: { sub: 'agent-7' } },
      'act.sub names the agent: act for sub, with the limits you set for agents.',
    ),
    valid(
      'no scope claim',
      es256(claims({ scope: undefined })),
      { sub: 'au-alice', scopes: [] },
      'No scope is no scopes.',
    ),
    valid(
      'an empty scope claim',
      es256(claims({ scope: '' })),
      { sub: 'au-alice', scopes: [] },
      'An empty claim is no scopes, as the local platform issues it when the exchange asked for none: split on spaces and drop the empty strings (a plain split gives [""]).',
    ),
    valid(
      'spaces around and between scopes',
      es256(claims({ scope: ' svc.notifications  polls.vote ' })),
      { sub: 'au-alice', scopes: ['svc.notifications', 'polls.vote'] },
      'Split on spaces and drop the empty strings.',
    ),
    valid(
      'aud as an array of the audience alone',
      es256(claims({ aud: [AUDIENCE] })),
      alice,
      'An array is allowed when it holds exactly the audience.',
    ),
    valid(
      'expired 4 s ago, within the 5 s tolerance',
      es256(claims({ exp: NOW - 4 })),
      alice,
      'Refused only when exp <= now - 5.',
    ),
    valid(
      'nbf 5 s ahead, within the 5 s tolerance',
      es256(claims({ nbf: NOW + 5 })),
      alice,
      'Refused only when nbf > now + 5.',
    ),
    refused(
      'signed by another key under the realm key’s kid',
      jws({ alg: 'ES256', typ: 'JWT', kid: KID.es256 }, claims(), 'es256-unpublished'),
      'bad-signature',
      'A forgery: the kid is the realm’s, the signature is not.',
    ),
    ...byAlgorithm.map((v) => {
      const [header, , signed] = v.token.split('.');
      return refused(
        `${v.name.split(',')[0]}: payload changed after signing`,
        `${header}.${b64u(JSON.stringify(claims({ sub: 'au-mallory' })))}.${signed}`,
        'bad-signature',
        'The signature covers the header and payload text exactly.',
      );
    }),
    refused(
      'alg none',
      jws({ alg: 'none', typ: 'JWT' }, claims(), 'none'),
      'algorithm-not-allowed',
      'Only RS256, PS256, ES256 and EdDSA are accepted, checked before any key is looked up.',
    ),
    refused(
      'HS256 keyed with the realm’s public key',
      jws({ alg: 'HS256', typ: 'JWT', kid: KID.es256 }, claims(), 'hs256-public-key'),
      'algorithm-not-allowed',
      'Never HMAC: the public key is public, so anyone could sign.',
    ),
    refused(
      'a kid the realm does not publish',
      jws({ alg: 'ES256', typ: 'JWT', kid: KID.unpublished }, claims(), 'es256-unpublished'),
      'unknown-key',
      'Fetch the key set again once (at most every 30 s), then refuse: see unknown_kid.',
    ),
    refused(
      'alg RS256 with the kid of the realm’s EC key',
      jws({ alg: 'RS256', typ: 'JWT', kid: KID.es256 }, claims(), 'rs256'),
      'unknown-key',
      'The key must fit the alg (kty, crv, and its own alg when it names one): take the alg from the key, never the key from the alg.',
    ),
    refused(
      'another realm’s issuer',
      es256(claims({ iss: `${AUTH_URL}/realms/other` })),
      'wrong-issuer',
      'iss must be exactly {auth_url}/realms/{realm}.',
    ),
    refused(
      'another audience',
      es256(claims({ aud: 'other-api' })),
      'wrong-audience',
      'A token for another backend: accepting it makes leaking a token between mini apps exploitable.',
    ),
    refused(
      'aud an array of two, the audience among them',
      es256(claims({ aud: [AUDIENCE, 'other-api'] })),
      'wrong-audience',
      'The audience alone: an array must be exactly [audience].',
    ),
    refused('no exp', es256(claims({ exp: undefined })), 'missing-claim', 'exp is required.'),
    refused('no sub', es256(claims({ sub: undefined })), 'missing-claim', 'sub is required.'),
    refused('no aud', es256(claims({ aud: undefined })), 'missing-claim', 'aud is required.'),
    refused('no iss', es256(claims({ iss: undefined })), 'missing-claim', 'iss is required.'),
    refused(
      'expired exactly 5 s ago',
      es256(claims({ exp: NOW - 5 })),
      'expired',
      'exp <= now - 5: refused, the edge of the tolerance.',
    ),
    refused('expired an hour ago', es256(claims({ exp: NOW - 3600 })), 'expired', 'Long past exp.'),
    refused('nbf 6 s ahead', es256(claims({ nbf: NOW + 6 })), 'invalid-claim', 'Not yet valid: nbf > now + 5.'),
    refused(
      'exp as a string',
      es256(claims({ exp: String(NOW + 300) })),
      'invalid-claim',
      'exp, nbf and iat are numbers.',
    ),
    refused(
      'sub as a number',
      es256(claims({ sub: 42 })),
      'invalid-claim',
      'sub is the identity to act on: a non-empty string.',
    ),
    refused(
      'act without sub',
      es256(claims({ act: {} })),
      'invalid-claim',
      'An act claim that names no agent is refused, not read as the person acting.',
    ),
    refused(
      'scope as an array',
      es256(claims({ scope: ['svc.notifications'] })),
      'invalid-claim',
      'scope is one string of scopes separated by spaces.',
    ),
    refused('two parts', `${goodHeader}.${goodPayload}`, 'malformed', 'A JWT is three parts separated by dots.'),
    refused(
      'a header that is not base64url',
      `${goodHeader}*.${goodPayload}.${good.split('.')[2]}`,
      'malformed',
      'Each part is base64url without padding.',
    ),
    refused(
      'a payload in standard base64, correctly signed',
      jws({ alg: 'ES256', typ: 'JWT', kid: KID.es256 }, { raw: plusPayload.replace(/=+$/, '') }, 'es256'),
      'malformed',
      'base64url, not base64: a decoder that takes + and / is too lenient.',
    ),
    refused(
      'a payload that is JSON but not an object, correctly signed',
      jws({ alg: 'ES256', typ: 'JWT', kid: KID.es256 }, { raw: b64u('["au-alice"]') }, 'es256'),
      'malformed',
      'The claims are a JSON object.',
    ),
  ];
  return {
    description:
      'Test vectors for verifying the token a mini app sends its backend (Authorization: Bearer <token>). Serve jwks as the key set at verifier.jwks_uri (or hand it to your verifier), verify each token with verifier.now as the clock, and compare: valid says whether verification must succeed; expect is the identity it resolves (sub, the scope claim split on spaces, act.sub as actor.sub); reason names the refusal as svc-sdk/server reports it (SvcTokenError.reason). The rules, in order, are in docs/backend.md, "Verifying the app\'s token".',
    verifier: {
      auth_url: AUTH_URL,
      realm: REALM,
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/protocol/openid-connect/certs`,
      audience: AUDIENCE,
      now: NOW,
      clock_tolerance_seconds: TOLERANCE,
      algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      required_claims: ['exp', 'sub', 'iss', 'aud'],
    },
    unknown_kid:
      "When no key of the set has the token's kid (and fits its alg), fetch the key set again once, at most once every 30 s, and look again: the realm may have rotated its keys since the set was fetched. If no key fits then, refuse (unknown-key). Never fetch on every token: a stream of tokens with made-up kids would make the backend hammer the identity provider.",
    jwks: {
      keys: [
        { ...platformEc.jwk, kid: KID.es256, alg: 'ES256', use: 'sig' },
        { ...(createPublicKey(ed25519).export({ format: 'jwk' }) as object), kid: KID.eddsa, alg: 'EdDSA', use: 'sig' },
        { kty: 'RSA', n: RSA_JWK.n, e: RSA_JWK.e, kid: KID.rs256, alg: 'RS256', use: 'sig' },
        { kty: 'RSA', n: PS256_JWK.n, e: PS256_JWK.e, kid: KID.ps256, alg: 'PS256', use: 'sig' },
      ],
    },
    vectors,
  };
}

// Only write when run as a script, not when a test imports createTokenVectors().
if (process.argv[1]?.endsWith('tokenVectors.mjs') || process.argv[1]?.endsWith('tokenVectors.ts')) {
  writeFileSync(TOKEN_VECTORS_FILE, `${JSON.stringify(createTokenVectors(), null, 2)}\n`);
  console.log(`wrote ${TOKEN_VECTORS_FILE}`);
}
