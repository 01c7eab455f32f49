import { describe, expect, it } from 'vitest';
import { isSvcSignatureError, signRequest, verifySignature, verifyWebhook } from '../../src/server';

const secret = 'sk_test_current_0123456789';
const previous = 'sk_test_previous_9876543210';
const body = '{"event":"user.deprovisioned","app_user_id":"u1"}';
const now = 1_800_000_000;

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isSvcSignatureError(error), 'expected a SvcSignatureError').toBe(true);
  return error as { reason: string; message: string; skewSeconds?: number; status: number };
}

describe('signRequest and verifySignature', () => {
  it('signs v0:<timestamp>:<body> with HMAC-SHA256 as the four headers of the platform', async () => {
    const headers = await signRequest({ body, secret, miniAppId: '0123456789abcdef', timestamp: now });
    expect(Object.keys(headers).sort()).toEqual([
      'Content-Type',
      'X-Svc-Mini-App',
      'X-Svc-Request-Timestamp',
      'X-Svc-Signature',
    ]);
    expect(headers['X-Svc-Request-Timestamp']).toBe(String(now));
    // An independent computation with node:crypto over the same base.
    const { createHmac } = await import('node:crypto');
    expect(headers['X-Svc-Signature']).toBe(
      `v0=${createHmac('sha256', secret).update(`v0:${now}:${body}`).digest('hex')}`,
    );
    await expect(verifySignature({ body, headers }, { secrets: [secret], now })).resolves.toBe(now);
  });

  it('verifies over the exact bytes: a string and its bytes agree, a changed byte fails', async () => {
    const headers = await signRequest({ body: new TextEncoder().encode(body), secret, miniAppId: 'a', timestamp: now });
    await verifySignature({ body, headers }, { secrets: [secret], now });
    await verifySignature({ body: new TextEncoder().encode(body).buffer, headers }, { secrets: [secret], now });
    const e = await failure(verifySignature({ body: body.replace('u1', 'u2'), headers }, { secrets: [secret], now }));
    expect(e.reason).toBe('bad-signature');
    expect(e.status).toBe(401);
  });

  it('accepts a skew of 299 and 300 s either way and refuses 301, naming the skew', async () => {
    for (const skew of [-300, -299, 0, 299, 300]) {
      const headers = await signRequest({ body, secret, miniAppId: 'a', timestamp: now + skew });
      await expect(verifySignature({ body, headers }, { secrets: [secret], now })).resolves.toBe(now + skew);
    }
    const old = await failure(
      verifySignature(
        { body, headers: await signRequest({ body, secret, miniAppId: 'a', timestamp: now - 301 }) },
        { secrets: [secret], now },
      ),
    );
    expect(old).toMatchObject({ reason: 'stale-timestamp', skewSeconds: 301 });
    expect(old.message).toContain('301 s old');
    const future = await failure(
      verifySignature(
        { body, headers: await signRequest({ body, secret, miniAppId: 'a', timestamp: now + 301 }) },
        { secrets: [secret], now },
      ),
    );
    expect(future).toMatchObject({ reason: 'future-timestamp', skewSeconds: 301 });
  });

  it('verifies with the old or the new secret during a rotation, and with neither once the old one is dropped', async () => {
    const byOld = await signRequest({ body, secret: previous, miniAppId: 'a', timestamp: now });
    const byNew = await signRequest({ body, secret, miniAppId: 'a', timestamp: now });
    await verifySignature({ body, headers: byOld }, { secrets: [secret, previous], now });
    await verifySignature({ body, headers: byNew }, { secrets: [secret, previous], now });
    expect((await failure(verifySignature({ body, headers: byOld }, { secrets: [secret], now }))).reason).toBe(
      'bad-signature',
    );
  });

  it('refuses a header with more than one signature: the header is exactly one v0= signature', async () => {
    const byOld = await signRequest({ body, secret: previous, miniAppId: 'a', timestamp: now });
    const byNew = await signRequest({ body, secret, miniAppId: 'a', timestamp: now });
    for (const bad of [
      `${byNew['X-Svc-Signature']},${byOld['X-Svc-Signature']}`,
      `${byNew['X-Svc-Signature']},`,
      ` ${byNew['X-Svc-Signature']}`,
      `${byNew['X-Svc-Signature']},v1=00`,
    ])
      expect(
        (
          await failure(
            verifySignature(
              { body, headers: { ...byNew, 'X-Svc-Signature': bad } },
              { secrets: [secret, previous], now },
            ),
          )
        ).reason,
      ).toBe('malformed-signature');
  });

  it('reads headers from a Headers object or a plain object in any case', async () => {
    const signed = await signRequest({ body, secret, miniAppId: 'a', timestamp: now });
    const lower = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toLowerCase(), v]));
    const upper = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toUpperCase(), [v]]));
    await verifySignature({ body, headers: new Headers(signed) }, { secrets: secret, now });
    await verifySignature({ body, headers: lower }, { secrets: secret, now });
    await verifySignature({ body, headers: upper }, { secrets: secret, now });
  });

  it('reads a header given twice in a plain object as Headers does, joined: two signatures are refused in any order', async () => {
    const signed = await signRequest({ body, secret, miniAppId: 'a', timestamp: now });
    const good = signed['X-Svc-Signature']!;
    const bogus = `v0=${'0'.repeat(64)}`;
    for (const headers of [
      { ...signed, 'X-Svc-Signature': [good, bogus] },
      { ...signed, 'X-Svc-Signature': [bogus, good] },
      { ...signed, 'x-svc-signature': bogus },
    ])
      expect((await failure(verifySignature({ body, headers }, { secrets: secret, now }))).reason).toBe(
        'malformed-signature',
      );
  });

  it('names a missing or malformed header, a parsed body and a missing secret', async () => {
    const signed = await signRequest({ body, secret, miniAppId: 'a', timestamp: now });
    const { 'X-Svc-Signature': _, ...unsigned } = signed;
    const missing = await failure(verifySignature({ body, headers: unsigned }, { secrets: [secret], now }));
    expect(missing.reason).toBe('missing-header');
    expect(missing.message).toContain('X-Svc-Signature');
    const bad = await failure(
      verifySignature({ body, headers: { ...signed, 'X-Svc-Signature': 'v1=abc' } }, { secrets: [secret], now }),
    );
    expect(bad.reason).toBe('malformed-signature');
    // The signature is 'v0=' and lowercase hex only: the same digits in uppercase are refused, not verified.
    const upper = await failure(
      verifySignature(
        { body, headers: { ...signed, 'X-Svc-Signature': `v0=${signed['X-Svc-Signature']!.slice(3).toUpperCase()}` } },
        { secrets: [secret], now },
      ),
    );
    expect(upper.reason).toBe('malformed-signature');
    expect(upper.message).toContain('lowercase hex');
    const parsed = await failure(
      verifySignature({ body: JSON.parse(body) as never, headers: signed }, { secrets: [secret], now }),
    );
    expect(parsed.reason).toBe('parsed-body');
    expect(parsed.message).toContain('express.raw');
    // A Request whose body a middleware already read: the reason and the fix, not the platform's bare TypeError.
    const read = new Request('http://127.0.0.1/hooks', { method: 'POST', headers: signed, body });
    await read.text();
    const used = await failure(verifyWebhook(read, { secrets: [secret], now }));
    expect([used.reason, used.message]).toEqual(['parsed-body', expect.stringContaining('already read')]);
    expect((await failure(verifySignature({ body, headers: signed }, { secrets: [], now }))).reason).toBe('no-secret');
    expect(
      (await failure(verifySignature({ body, headers: signed }, { secrets: [secret], now, miniAppId: 'b' }))).reason,
    ).toBe('wrong-mini-app');
    const { 'X-Svc-Mini-App': _app, ...anonymous } = signed;
    const noApp = await failure(
      verifySignature({ body, headers: anonymous }, { secrets: [secret], now, miniAppId: 'a' }),
    );
    expect([noApp.reason, noApp.message]).toEqual([
      'missing-header',
      "the X-Svc-Mini-App header is missing: send this mini app's id in it with every signed request.",
    ]);
  });

  it('never puts a secret or a signature in an error message', async () => {
    const signed = await signRequest({ body, secret: previous, miniAppId: 'a', timestamp: now });
    const messages: string[] = [];
    for (const attempt of [
      () => verifySignature({ body, headers: signed }, { secrets: [secret], now }),
      () => verifySignature({ body, headers: signed }, { secrets: [secret], now: now + 1000 }),
      () => verifySignature({ body: {} as never, headers: signed }, { secrets: [secret], now }),
    ])
      messages.push((await failure(attempt())).message);
    for (const message of messages) {
      expect(message).not.toContain(secret);
      expect(message).not.toContain(previous);
      expect(message).not.toContain(signed['X-Svc-Signature']!.slice(3, 20));
    }
  });

  it('refuses bad signRequest input by name', async () => {
    await expect(signRequest({ body, secret: '', miniAppId: 'a' })).rejects.toThrow(/secret/);
    await expect(signRequest({ body, secret, miniAppId: '' })).rejects.toThrow(/miniAppId/);
    await expect(signRequest({ body, secret, miniAppId: 'a', timestamp: 1.5 })).rejects.toThrow(/timestamp/);
  });
});
