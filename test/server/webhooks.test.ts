import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryIdempotencyStore,
  createWebhookHandler,
  isSvcSignatureError,
  signRequest,
  verifyWebhook,
  type UserDeprovisionedEvent,
} from '../../src/server';
import { type Loopback, serveFetch } from './loopback';

const secret = 'whsec_local_0123456789';
const miniAppId = '0123456789abcdef';
const deprovisioned: UserDeprovisionedEvent = {
  event: 'user.deprovisioned',
  occurred_at: '2026-11-22T10:00:00Z',
  mini_app_id: miniAppId,
  app_user_id: 'au_1',
  tenant_id: 't1',
};
const servers: Loopback[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function deliver(url: string, event: unknown, options: { secret?: string; timestamp?: number } = {}) {
  const body = JSON.stringify(event);
  const headers = await signRequest({
    body,
    secret: options.secret ?? secret,
    miniAppId,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A webhook endpoint on loopback that records the app_user_id of each user.deprovisioned it runs. */
async function serveRecorder(): Promise<{ server: Loopback; seen: string[] }> {
  const seen: string[] = [];
  const handle = createWebhookHandler({
    secrets: [secret],
    on: { 'user.deprovisioned': (e) => void seen.push(e.app_user_id) },
  });
  const server = await serveFetch(handle);
  servers.push(server);
  return { server, seen };
}

const defer = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('verifyWebhook', () => {
  it('returns the typed event from a Request and from { body, headers }', async () => {
    const body = JSON.stringify(deprovisioned);
    const headers = await signRequest({ body, secret, miniAppId });
    const fromRequest = await verifyWebhook(new Request('http://127.0.0.1/hooks', { method: 'POST', headers, body }), {
      secrets: [secret],
    });
    expect(fromRequest).toEqual(deprovisioned);
    const fromPair = await verifyWebhook({ body, headers }, { secrets: [secret] });
    if (fromPair.event === 'user.deprovisioned') expect((fromPair as UserDeprovisionedEvent).app_user_id).toBe('au_1');
    else expect.fail('wrong event');
  });

  it('keeps an unknown event name and unknown fields (a newer platform)', async () => {
    const event = { event: 'room.archived', occurred_at: 'x', mini_app_id: miniAppId, tenant_id: 't', extra: { a: 1 } };
    const body = JSON.stringify(event);
    expect(
      await verifyWebhook({ body, headers: await signRequest({ body, secret, miniAppId }) }, { secrets: [secret] }),
    ).toEqual(event);
  });

  it('with miniAppId, refuses a signed body whose mini_app_id names another app, though its header names this one', async () => {
    const body = JSON.stringify({ ...deprovisioned, mini_app_id: 'another-app' });
    const headers = await signRequest({ body, secret, miniAppId });
    await expect(verifyWebhook({ body, headers }, { secrets: [secret], miniAppId })).rejects.toMatchObject({
      reason: 'wrong-mini-app',
      message: expect.stringContaining("the signed body's mini_app_id"),
    });
    // Without miniAppId, an endpoint that routes by the header reads the body's id itself.
    await expect(verifyWebhook({ body, headers }, { secrets: [secret] })).resolves.toMatchObject({
      mini_app_id: 'another-app',
    });
  });

  it('refuses a body that is not an event, after the signature passed', async () => {
    const body = '[1,2]';
    const error = await verifyWebhook(
      { body, headers: await signRequest({ body, secret, miniAppId }) },
      { secrets: [secret] },
    ).catch((e) => e);
    expect(isSvcSignatureError(error) && error.reason).toBe('invalid-payload');
  });

  it('refuses a signed body holding a lone surrogate, which the server API refuses and other languages cannot decode', async () => {
    // The bytes are ASCII: `\ud800` is a JSON escape without its low half.
    const body = JSON.stringify(deprovisioned).replace('"app_user_id":"', '"app_user_id":"au-\\ud800');
    const error = await verifyWebhook(
      { body, headers: await signRequest({ body, secret, miniAppId }) },
      { secrets: [secret] },
    ).catch((e) => e);
    expect(error).toMatchObject({
      reason: 'invalid-payload',
      status: 400,
      message:
        "the webhook body's $.app_user_id contains a lone surrogate (U+D800) at character 4: not an event the platform sends.",
    });
    // Over HTTP, the handler answers 400 and runs nothing.
    const { server, seen } = await serveRecorder();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: await signRequest({ body, secret, miniAppId }),
      body,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid-payload');
    expect(seen).toEqual([]);
  });
});

describe('createWebhookHandler over real HTTP', () => {
  it('runs the typed handler once per delivery; a retry of the same body is acknowledged without running it', async () => {
    const { server, seen } = await serveRecorder();
    expect(await deliver(server.url, deprovisioned)).toEqual({ status: 200, body: { ok: true } });
    // The platform's retry: same body, new timestamp header.
    expect(await deliver(server.url, deprovisioned, { timestamp: Math.floor(Date.now() / 1000) + 1 })).toEqual({
      status: 200,
      body: { ok: true, duplicate: true },
    });
    expect(seen).toEqual(['au_1']);
  });

  it('keys on what deliveryKey returns: a retry written anew is still a duplicate, and a bad key is refused', async () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    let keyOf = (e: { event: string; occurred_at?: unknown; app_user_id?: unknown }) =>
      `${e.event}:${String(e.app_user_id)}:${String(e.occurred_at)}`;
    const handle = createWebhookHandler({
      secrets: [secret],
      on: { 'user.deprovisioned': (e) => void seen.push(e.app_user_id) },
      deliveryKey: (event) => keyOf(event),
      onError: (error) => errors.push(error),
    });
    const server = await serveFetch(handle);
    servers.push(server);
    expect(await deliver(server.url, deprovisioned)).toEqual({ status: 200, body: { ok: true } });
    // Other bytes, the same event: its fields in another order, as a platform re-serialising a retry would send.
    const reordered = Object.fromEntries(Object.entries(deprovisioned).reverse());
    expect(await deliver(server.url, reordered)).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    expect(seen).toEqual(['au_1']);
    // A key that is no text, or a key function that throws: answered 500 (the platform retries), onError told.
    keyOf = () => '';
    expect(await deliver(server.url, deprovisioned)).toEqual({
      status: 500,
      body: {
        error: 'delivery-key',
        message:
          'deliveryKey returned "": return a text that is not blank, one per delivery. Nothing ran: the platform retries the delivery.',
      },
    });
    keyOf = () => '   ';
    expect(await deliver(server.url, deprovisioned)).toMatchObject({ status: 500 });
    keyOf = () => {
      throw new Error('no tenant');
    };
    expect(await deliver(server.url, deprovisioned)).toMatchObject({
      status: 500,
      body: { message: 'deliveryKey threw: no tenant. Nothing ran: the platform retries the delivery.' },
    });
    expect(errors).toHaveLength(3);
    expect(seen).toEqual(['au_1']);
  });

  it('runs a concurrent duplicate delivery once: the second answers 409 so the platform retries later', async () => {
    const gate = defer();
    let runs = 0;
    const handle = createWebhookHandler({
      secrets: [secret],
      on: {
        'user.deprovisioned': async () => {
          runs++;
          await gate.promise;
        },
      },
    });
    const server = await serveFetch(handle);
    servers.push(server);
    const first = deliver(server.url, deprovisioned);
    await expect.poll(() => runs).toBe(1);
    const second = await deliver(server.url, deprovisioned);
    expect(second.status).toBe(409);
    gate.resolve();
    expect((await first).status).toBe(200);
    expect((await deliver(server.url, deprovisioned)).body).toEqual({ ok: true, duplicate: true });
    expect(runs).toBe(1);
  });

  it('releases the claim when the handler fails, so the retry runs it again', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const handle = createWebhookHandler({
      secrets: [secret],
      onError: (e) => errors.push(e),
      on: {
        'user.deprovisioned': () => {
          calls++;
          if (calls === 1) throw new Error('database down');
        },
      },
    });
    const server = await serveFetch(handle);
    servers.push(server);
    expect((await deliver(server.url, deprovisioned)).status).toBe(500);
    expect((await deliver(server.url, deprovisioned)).status).toBe(200);
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('acknowledges with 202 before the deadline and lets a slow handler finish in the background', async () => {
    const gate = defer();
    const finished = defer();
    const handle = createWebhookHandler({
      secrets: [secret],
      ackAfterMs: 50,
      on: {
        'scope.granted': async () => {
          await gate.promise;
          finished.resolve();
        },
      },
    });
    const server = await serveFetch(handle);
    servers.push(server);
    const event = {
      event: 'scope.granted',
      occurred_at: 'x',
      mini_app_id: miniAppId,
      tenant_id: 't',
      app_user_id: 'a',
      scope: 'svc.notifications',
    };
    expect(await deliver(server.url, event)).toEqual({ status: 202, body: { ok: true, processing: true } });
    gate.resolve();
    await finished.promise;
    expect((await deliver(server.url, event)).body).toEqual({ ok: true, duplicate: true });
  });

  it('answers 401 for a bad signature, 400 for a non-event, 405 and 415 for the wrong method or type', async () => {
    const handle = createWebhookHandler({ secrets: [secret], on: {} });
    const server = await serveFetch(handle);
    servers.push(server);
    expect((await deliver(server.url, deprovisioned, { secret: 'wrong-secret' })).body.error).toBe('bad-signature');
    expect((await deliver(server.url, 'just a string')).status).toBe(400);
    expect((await fetch(server.url)).status).toBe(405);
    expect(
      (await fetch(server.url, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
  });

  it('acknowledges an unknown event (and hands it to onUnknown)', async () => {
    const unknown: string[] = [];
    const handle = createWebhookHandler({ secrets: [secret], on: {}, onUnknown: (e) => void unknown.push(e.event) });
    const server = await serveFetch(handle);
    servers.push(server);
    expect(
      (await deliver(server.url, { event: 'future.thing', occurred_at: 'x', mini_app_id: miniAppId, tenant_id: 't' }))
        .status,
    ).toBe(200);
    expect(unknown).toEqual(['future.thing']);
  });

  it('acknowledges a known event without a handler quietly, or hands it to onUnhandled, never to onUnknown', async () => {
    const unknown: string[] = [];
    const unhandled: string[] = [];
    const errors: unknown[] = [];
    const event = {
      event: 'scope.granted',
      occurred_at: '2026-01-15T09:30:00.000Z',
      mini_app_id: miniAppId,
      tenant_id: 't',
      app_user_id: 'au1',
      scope: 'svc.notifications',
    };
    const quiet = await serveFetch(
      createWebhookHandler({
        secrets: [secret],
        on: {},
        onUnknown: (e) => void unknown.push(e.event),
        onError: (e) => void errors.push(e),
      }),
    );
    servers.push(quiet);
    expect((await deliver(quiet.url, event)).status).toBe(200);
    const routed = await serveFetch(
      createWebhookHandler({
        secrets: [secret],
        on: {},
        onUnknown: (e) => void unknown.push(e.event),
        onUnhandled: (e) => void unhandled.push(e.event),
      }),
    );
    servers.push(routed);
    expect((await deliver(routed.url, { ...event, scope: 'svc.storage' })).status).toBe(200);
    expect(unhandled).toEqual(['scope.granted']);
    expect(unknown).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('createMemoryIdempotencyStore', () => {
  it('claims once, reports in-progress, expires a crashed claim after its lease, and remembers done', async () => {
    let clock = 0;
    const store = createMemoryIdempotencyStore(() => clock);
    expect(await store.claim('k', 'a', 1000)).toBe('claimed');
    expect(await store.claim('k', 'b', 1000)).toBe('in-progress');
    clock = 1001; // the first claimant crashed: its lease ends
    expect(await store.claim('k', 'b', 1000)).toBe('claimed');
    await store.release('k', 'a'); // a stale claimant cannot release the new claim
    expect(await store.claim('k', 'c', 1000)).toBe('in-progress');
    await store.complete('k', 'b', 48 * 3600_000);
    clock += 25 * 3600_000; // past the platform's 24-hour retry period
    expect(await store.claim('k', 'd', 1000)).toBe('done');
  });

  it('drops expired keys as new ones come: a long-running backend holds only the last ttl of them', async () => {
    let clock = 0;
    const store = createMemoryIdempotencyStore(() => clock);
    const day = 24 * 3600_000;
    for (let i = 0; i < 10_000; i++) {
      clock += 10;
      await store.claim(`first-${i}`, 't', 30_000);
      await store.complete(`first-${i}`, 't', 2 * day);
    }
    // A claim whose handler crashed is no completion: it goes when its lease ends, behind the completions too.
    await store.claim('crashed', 't', 30_000);
    expect(store.size).toBe(10_001);
    clock += 2 * day + 1; // every key above has expired
    await store.claim('next', 't', 30_000);
    expect(store.size).toBe(1);
    expect(await store.claim('first-0', 'u', 30_000)).toBe('claimed');
  });
});
