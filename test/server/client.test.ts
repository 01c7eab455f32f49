import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRateLimiter,
  createServerClient,
  isSvcApiError,
  type SvcApiError,
  verifySignature,
} from '../../src/server';
import { type Loopback, serveNode } from './loopback';

const secret = 'sk_server_api_0123456789';
const miniAppId = '0123456789abcdef';
const servers: Loopback[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

interface Seen {
  method: string;
  path: string;
  body: string;
}

/** A fake platform that verifies every request's signature and answers from `answer`. */
async function platform(answer: (seen: Seen, n: number, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = await serveNode(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    try {
      await verifySignature({ body, headers: req.headers }, { secrets: [secret], miniAppId });
    } catch {
      res.writeHead(401).end();
      return;
    }
    const entry = { method: req.method!, path: req.url!, body };
    seen.push(entry);
    answer(entry, seen.length, res);
  });
  servers.push(server);
  return { seen, baseUrl: `${server.url}/v1` };
}

const problem = (res: ServerResponse, status: number, name: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/problem+json', ...headers }).end(
    JSON.stringify({
      type: `https://errors.example/${name}`,
      title: name,
      status,
      detail: `Do something about ${name}.`,
      instance: '/v1/x',
    }),
  );

const fail = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(isSvcApiError(e), `expected SvcApiError, got ${e}`).toBe(true);
  return e as SvcApiError;
};
const fast = { baseDelayMs: 5, maxDelayMs: 20 };

describe('createServerClient', () => {
  it("resolves a notification's id from the 201 the contract gives it", async () => {
    const { baseUrl } = await platform((_req, _n, res) =>
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"notification_id":"n-1"}'),
    );
    const api = createServerClient({ baseUrl, miniAppId, secret });
    expect(await api.notify('au', { title: 'Poll closed', body: 'See results', deep_link: '/polls/7' })).toEqual({
      notification_id: 'n-1',
    });
  });

  it('calls each endpoint with signed requests and the documented bodies', async () => {
    const { seen, baseUrl } = await platform(({ path }, _n, res) => {
      if (path.endsWith('/cards'))
        return res.writeHead(201, { 'content-type': 'application/json' }).end('{"event_id":"$e1"}');
      if (path.includes('/installations/'))
        return res
          .writeHead(200)
          .end('{"installed":true,"version":"1.2.0","granted_scopes":["svc.notifications"],"tenant_id":"t1"}');
      if (path === '/v1/agents/verify')
        return res
          .writeHead(200)
          .end(
            '{"subject":{"app_user_id":"au"},"actor":{"agent_id":"ag","kind":"svc_agent"},"tenant_policy":{"max_approval_minor":5000,"currency_code":"EUR"}}',
          );
      res.writeHead(202).end();
    });
    const api = createServerClient({ baseUrl, miniAppId, secret });
    expect(await api.postCard('!room:1', { app_user_id: 'au', card: { title: 'Lunch?', body: 'Vote' } })).toEqual({
      event_id: '$e1',
    });
    // A 2xx without a body (this server's 202) resolves no id.
    expect(await api.notify('au', { title: 'Poll closed', body: 'See results', deep_link: '/polls/7' })).toEqual({});
    expect((await api.getInstallation('au')).granted_scopes).toEqual(['svc.notifications']);
    expect((await api.verifyAgent('eyJ.a.b')).actor.kind).toBe('svc_agent');
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /v1/rooms/!room%3A1/cards',
      'POST /v1/users/au/notifications',
      `GET /v1/apps/${miniAppId}/installations/au`,
      'POST /v1/agents/verify',
    ]);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      mini_app_id: miniAppId,
      app_user_id: 'au',
      card: { title: 'Lunch?', body: 'Vote' },
    });
    expect(JSON.parse(seen[1]!.body)).toEqual({
      mini_app_id: miniAppId,
      title: 'Poll closed',
      body: 'See results',
      deep_link: '/polls/7',
    });
  });

  it('maps problem details to SvcApiError with the meaning of each problem in the message', async () => {
    const { baseUrl } = await platform(({ path }, _n, res) =>
      path.endsWith('/cards') ? problem(res, 409, 'room-encrypted') : problem(res, 403, 'scope-not-granted'),
    );
    const api = createServerClient({ baseUrl, miniAppId, secret });
    const encrypted = await fail(api.postCard('r', { app_user_id: 'au', card: { title: 't', body: 'b' } }));
    expect(encrypted).toMatchObject({
      status: 409,
      problem: 'room-encrypted',
      retriable: false,
      instance: '/v1/x',
      detail: 'Do something about room-encrypted.',
    });
    expect(encrypted.message).toContain('svc.message.send()');
    expect(encrypted.message).toContain('cross-signed member');
    const scope = await fail(api.notify('au', { title: 't', body: 'b', deep_link: '/' }));
    expect(scope).toMatchObject({ status: 403, problem: 'scope-not-granted' });
    expect(scope.message).toContain(
      'the mini app asks the person for it at the point of use (svc.permissions.request)',
    );
  });

  it('waits Retry-After on 429, then succeeds', async () => {
    const waits: number[] = [];
    const { seen, baseUrl } = await platform((_s, n, res) =>
      n === 1 ? problem(res, 429, 'rate-limited', { 'retry-after': '0' }) : res.writeHead(201).end('{"event_id":"e"}'),
    );
    const api = createServerClient({
      baseUrl,
      miniAppId,
      secret,
      onRateLimited: ({ retryAfter }) => waits.push(retryAfter),
    });
    expect(await api.postCard('r', { app_user_id: 'a', card: { title: 't', body: 'b' } })).toEqual({ event_id: 'e' });
    expect(seen).toHaveLength(2);
    expect(waits).toEqual([0]);
  });

  it('retries 503 with backoff, then succeeds; gives up after max retries with the last problem', async () => {
    const first = await platform((_s, n, res) =>
      n < 3
        ? problem(res, 503, 'unavailable')
        : res.writeHead(200).end('{"installed":false,"version":"1.0.0","granted_scopes":[],"tenant_id":"t"}'),
    );
    const api = createServerClient({ baseUrl: first.baseUrl, miniAppId, secret, retry: fast });
    expect((await api.getInstallation('au')).installed).toBe(false);
    expect(first.seen).toHaveLength(3);

    const always = await platform((_s, _n, res) => problem(res, 503, 'unavailable'));
    const limited = createServerClient({ baseUrl: always.baseUrl, miniAppId, secret, retry: { ...fast, max: 2 } });
    expect(await fail(limited.getInstallation('au'))).toMatchObject({ status: 503, retriable: true });
    expect(always.seen).toHaveLength(3);
  });

  it('stops retrying when the total time budget would be exceeded', async () => {
    const { seen, baseUrl } = await platform((_s, _n, res) =>
      problem(res, 429, 'rate-limited', { 'retry-after': '60' }),
    );
    const api = createServerClient({ baseUrl, miniAppId, secret, retry: { budgetMs: 1_000 } });
    expect(await fail(api.getInstallation('au'))).toMatchObject({ status: 429, retryAfter: 60 });
    expect(seen).toHaveLength(1);
  });

  it("holds every request of the client back for a 429's Retry-After, not only the one that got it", async () => {
    const { seen, baseUrl } = await platform((_s, _n, res) =>
      problem(res, 429, 'rate-limited', { 'retry-after': '60' }),
    );
    const api = createServerClient({ baseUrl, miniAppId, secret, retry: { max: 0 } });
    expect(await fail(api.getInstallation('au'))).toMatchObject({ status: 429, retryAfter: 60 });
    // The next request waits in the limiter; given up on, it never reached the platform.
    expect(await fail(api.getInstallation('au', { signal: AbortSignal.timeout(100) }))).toMatchObject({
      problem: 'aborted',
    });
    expect(seen).toHaveLength(1);
  });

  it('fails a call whose wait for the rate limit outlasts its budget, unsent and retriable, not a minute later', async () => {
    const { seen, baseUrl } = await platform((_s, _n, res) =>
      problem(res, 429, 'rate-limited', { 'retry-after': '60' }),
    );
    const api = createServerClient({ baseUrl, miniAppId, secret, retry: { max: 0, budgetMs: 300 } });
    expect(await fail(api.getInstallation('au'))).toMatchObject({ status: 429, retryAfter: 60 });
    const started = Date.now();
    const waited = await fail(api.getInstallation('au'));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(waited).toMatchObject({ status: 0, problem: 'timeout', retriable: true });
    expect(waited.message).toContain("no rate-limit slot within the call's 300 ms budget");
    expect(seen).toHaveLength(1);
  });

  it('does not retry a POST whose outcome is unknown, unless asked to; a GET is retried', async () => {
    let drops = 0;
    const server = await serveNode((req, res) => {
      if (drops++ < 1) return req.socket.destroy(); // the request arrived; the answer never comes back
      res.writeHead(201).end('{"event_id":"e2"}');
    });
    servers.push(server);
    const api = createServerClient({ baseUrl: `${server.url}/v1`, miniAppId, secret, retry: fast });
    expect(await fail(api.postCard('r', { app_user_id: 'a', card: { title: 't', body: 'b' } }))).toMatchObject({
      status: 0,
      problem: 'network',
    });
    expect(drops).toBe(1);
    drops = 0;
    const optIn = createServerClient({
      baseUrl: `${server.url}/v1`,
      miniAppId,
      secret,
      retry: fast,
      retryUnknownOutcome: true,
    });
    expect(await optIn.postCard('r', { app_user_id: 'a', card: { title: 't', body: 'b' } })).toEqual({
      event_id: 'e2',
    });
    expect(drops).toBe(2);
  });

  it('says which platform it could not reach, and the system error, when nothing listens there', async () => {
    const closed = await serveNode(() => {});
    await closed.close();
    const api = createServerClient({ baseUrl: `${closed.url}/v1`, miniAppId, secret, retry: fast });
    const error = await fail(api.getInstallation('au'));
    expect(error).toMatchObject({ status: 0, problem: 'network', retriable: true });
    expect((error as Error).message).toContain(
      `the connection to ${closed.url} failed (ECONNREFUSED): check that baseUrl (SVC_API_BASE) names the running platform; nothing was done; retry later.`,
    );
    expect((error as Error).message).not.toContain(secret);
  });

  it('does not follow a redirect, nor retry it, and says where it pointed without its query', async () => {
    const { seen, baseUrl } = await platform((entry, _n, res) => {
      if (entry.path.startsWith('/v1/')) res.writeHead(301, { location: '/elsewhere/v1?token=hunter2' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"event_id":"moved"}');
    });
    const api = createServerClient({ baseUrl, miniAppId, secret, retry: fast });
    // One after the other: each call's own failure, in order.
    for (const call of [
      () => api.getInstallation('au'),
      () => api.postCard('r', { app_user_id: 'a', card: { title: 't', body: 'b' } }),
    ]) {
      const error = await fail(call());
      expect(error).toMatchObject({ status: 301, problem: 'redirect', retriable: false });
      const { origin } = new URL(baseUrl);
      expect((error as Error).message).toContain(
        `the server answered a redirect to ${origin}/elsewhere/v1, which a signed request does not follow: set baseUrl (SVC_API_BASE) to the server API's own URL`,
      );
      expect((error as Error).message).not.toContain('hunter2');
    }
    // One request each, and none to where the redirect pointed.
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /v1/apps/0123456789abcdef/installations/au',
      'POST /v1/rooms/r/cards',
    ]);
  });

  it('ends a retry with the budget: a platform that never answers fails a GET within the budget, not past it', async () => {
    let requests = 0;
    const server = await serveNode(() => {
      requests++; // never answers
    });
    servers.push(server);
    // Attempts of 1 s, a budget of 1.5 s: the retry starts at 1.1-1.2 s and is cut to the 0.3-0.4 s left (its whole
    // second would end at 2.1-2.2 s).
    const api = createServerClient({
      baseUrl: `${server.url}/v1`,
      miniAppId,
      secret,
      timeoutMs: 1_000,
      retry: { budgetMs: 1_500, baseDelayMs: 200, maxDelayMs: 200 },
    });
    const started = Date.now();
    const error = await fail(api.getInstallation('au'));
    expect(Date.now() - started).toBeLessThan(1_900);
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(error).toMatchObject({ status: 0, problem: 'timeout', retriable: true });
    // The last attempt was cut to what was left: the message says so, with its time.
    expect(error.message).toMatch(
      /no answer from http:\/\/127\.0\.0\.1:\d+ within \d+ ms \(what was left of the call's 1500 ms retry budget\); nothing was done; retry later\./,
    );
    // A first attempt says its own timeout.
    const once = createServerClient({
      baseUrl: `${server.url}/v1`,
      miniAppId,
      secret,
      timeoutMs: 100,
      retry: { max: 0 },
    });
    expect((await fail(once.getInstallation('au'))).message).toContain('within 100 ms (timeoutMs)');
  });

  it('times out an attempt, and honours an AbortSignal', async () => {
    const server = await serveNode(() => {}); // never answers
    servers.push(server);
    const api = createServerClient({ baseUrl: `${server.url}/v1`, miniAppId, secret, timeoutMs: 50 });
    expect(await fail(api.postCard('r', { app_user_id: 'a', card: { title: 't', body: 'b' } }))).toMatchObject({
      problem: 'timeout',
    });
    const controller = new AbortController();
    const pending = api.getInstallation('au', { signal: controller.signal, timeoutMs: 60_000 });
    controller.abort();
    expect(await fail(pending)).toMatchObject({ problem: 'aborted', retriable: false });
  });

  it('fails as SvcApiError when a 2xx body stops or is not JSON, saying whether the platform acted', async () => {
    const server = await serveNode((req, res) => {
      req.resume();
      res.writeHead(req.url!.includes('garbled') ? 200 : 201, { 'content-type': 'application/json' });
      // Headers, then part of the body, then nothing: the answer's body never ends.
      if (req.url!.includes('garbled')) res.end('<html>a proxy page</html>');
      else res.write('{"event_id":');
    });
    servers.push(server);
    const api = createServerClient({ baseUrl: `${server.url}/v1`, miniAppId, secret, timeoutMs: 200 });
    const stalled = await fail(api.postCard('r', { app_user_id: 'a', card: { title: 't', body: 'b' } }));
    expect(isSvcApiError(stalled)).toBe(true);
    expect(stalled).toMatchObject({ status: 201, problem: 'timeout', retriable: false });
    expect((stalled as Error).message).toContain(
      "answered 201, but the answer's body did not end in time; the platform acted on it: do not send it again.",
    );
    const garbled = await fail(api.getInstallation('garbled'));
    expect(garbled).toMatchObject({ status: 200, problem: 'invalid-answer', retriable: true });
    expect((garbled as Error).message).toContain('answered 200 with a body that is not JSON');
  });

  it('retries a POST whose connection was refused (nothing sent), and reads Retry-After as an HTTP date', async () => {
    const closed = await serveNode(() => {});
    await closed.close();
    let tries = 0;
    const counting: typeof fetch = (input, init) => {
      tries++;
      return fetch(input, init);
    };
    const api = createServerClient({ baseUrl: `${closed.url}/v1`, miniAppId, secret, retry: fast, fetch: counting });
    const refused = await fail(api.postCard('r', { app_user_id: 'a', card: { title: 't', body: 'b' } }));
    expect(refused).toMatchObject({ status: 0, problem: 'network', retriable: true });
    expect((refused as Error).message).toContain('(ECONNREFUSED)');
    expect((refused as Error).message).toContain('nothing was done; retry later.');
    expect(tries).toBeGreaterThan(1);
    const when = new Date(Date.now() + 120_000).toUTCString();
    const { baseUrl } = await platform((_entry, _n, res) => problem(res, 503, 'unavailable', { 'retry-after': when }));
    const limited = createServerClient({ baseUrl, miniAppId, secret, retry: { max: 0 } });
    const error = (await fail(limited.getInstallation('au'))) as SvcApiError;
    expect(error.retryAfter).toBeGreaterThanOrEqual(118);
    expect(error.retryAfter).toBeLessThanOrEqual(120);
  });

  it('refuses bad arguments by name before sending', async () => {
    expect(() => createServerClient({ baseUrl: 'ftp://x', miniAppId, secret })).toThrow(/baseUrl/);
    // Without the version segment every path would miss: said at once, with what to pass.
    expect(() => createServerClient({ baseUrl: 'http://127.0.0.1:4310', miniAppId, secret })).toThrow(
      "createServerClient(): baseUrl must be an http(s) URL ending in /v1, the server API's base (SVC_API_BASE, such as http://127.0.0.1:4310/v1), not 'http://127.0.0.1:4310'.",
    );
    const api = createServerClient({ baseUrl: 'http://127.0.0.1:9/v1', miniAppId, secret });
    await expect(api.notify('au', { title: '', body: 'b', deep_link: '/' })).rejects.toThrow(/title/);
    await expect(api.postCard('', { app_user_id: 'a', card: { title: 't', body: 'b' } })).rejects.toThrow(/roomId/);
  });
});

describe('createRateLimiter', () => {
  it('lets a burst of 60 through at once, then paces at 600/min', async () => {
    let clock = 0;
    const limiter = createRateLimiter(undefined, () => clock);
    for (let i = 0; i < 60; i++) await limiter.take();
    const controller = new AbortController();
    const waiting = limiter.take(controller.signal);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped'); // the 61st had to wait
    clock += 100; // 600/min is one every 100 ms
    await limiter.take();
  });
});
