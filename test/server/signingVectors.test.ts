// schema/signing-vectors.json, the vectors a backend in any language checks its signing against, run through
// svc-sdk/server: every valid vector verifies and signs to the same header, every invalid one fails for its reason.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSigningVectors, SIGNING_VECTORS_FILE } from '../../scripts/signingVectors';
import { signRequest, verifySignature } from '../../src/server';

const committed = readFileSync(fileURLToPath(new URL(`../../${SIGNING_VECTORS_FILE}`, import.meta.url)), 'utf8');
const { vectors } = JSON.parse(committed) as ReturnType<typeof createSigningVectors>;

describe('schema/signing-vectors.json', () => {
  it('is what its generator writes (npm run schema:signing-vectors if this fails)', () => {
    expect(committed).toBe(`${JSON.stringify(createSigningVectors(), null, 2)}\n`);
  });

  it('covers bodies beyond ASCII, both sides of the window, a rotation overlap and each kind of refusal', () => {
    expect(vectors.filter((v) => v.valid)).toHaveLength(10);
    expect(new Set(vectors.filter((v) => !v.valid).map((v) => v.reason))).toEqual(
      new Set([
        'bad-signature',
        'stale-timestamp',
        'future-timestamp',
        'malformed-header',
        'malformed-signature',
        'missing-header',
        'wrong-mini-app',
      ]),
    );
    expect(vectors.some((v) => Buffer.from(v.body_base64, 'base64').toString('utf8').includes('🦊'))).toBe(true);
  });

  for (const v of vectors)
    it(`${v.valid ? 'verifies' : `refuses (${v.reason})`}: ${v.name}`, async () => {
      const body = new Uint8Array(Buffer.from(v.body_base64, 'base64'));
      const verified = verifySignature(
        { body, headers: v.headers },
        { secrets: v.secrets, now: v.now, ...(v.mini_app_id === undefined ? {} : { miniAppId: v.mini_app_id }) },
      );
      if (!v.valid) {
        await expect(verified).rejects.toMatchObject({ name: 'SvcSignatureError', reason: v.reason });
        return;
      }
      const stamp = v.headers['X-Svc-Request-Timestamp']!;
      // A valid vector carries every header.
      expect(Object.keys(v.headers)).toEqual([
        'X-Svc-Request-Timestamp',
        'X-Svc-Signature',
        'X-Svc-Mini-App',
        'Content-Type',
      ]);
      expect(await verified).toBe(Number(stamp));
      // signRequest writes the number as it is: a timestamp sent with leading zeros is verified, not reproduced.
      if (String(Number(stamp)) !== stamp) return;
      const signed = await signRequest({
        body,
        secret: v.signed_with!,
        miniAppId: v.headers['X-Svc-Mini-App']!,
        timestamp: Number(stamp),
      });
      expect(signed).toEqual(v.headers);
    });
});
