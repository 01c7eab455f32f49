// The platform's limits over real HTTP on loopback, against startDevPlatform itself (one bucket per vendor, held
// across requests), with the project's own createServerClient and plain node:http for byte-level control.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { createServerClient, isSvcApiError, signRequest } from '../../src/server';
import { readCheckedAnswer } from '../helpers/serverApiContract';
import { SERVER_API_LIMITS } from '../../src/server/serverApiLimits';

const APP = 'polls';
let p: DevPlatform;
// The rate limit's clock runs ahead of the wall clock by what the tests skipped (refill() instead of a 6 s wait).
let skipped = 0;

beforeAll(async () => {
  p = await startDevPlatform({ miniAppId: APP, audience: 'https://polls.example', now: () => Date.now() + skipped });
});
afterAll(() => p.close());

/**
 * Sends raw bytes in the given chunks (each written on its own), signed over their concatenation (or over
 * `signedBody`, with `leaveOut` headers left out): with a Content-Length, or with `chunked` as
 * `Transfer-Encoding: chunked` (Node's http does that when no length is set), as Go's http.Client sends a body it reads
 * from a stream.
 */
async function sendChunks(
  path: string,
  chunks: Uint8Array[],
  secret = p.signingSecret,
  method = 'POST',
  { chunked = false, signedBody = undefined as Uint8Array | undefined, leaveOut = [] as string[] } = {},
) {
  const body = Buffer.concat(chunks);
  const signed = await signRequest({ body: signedBody ?? body, secret, miniAppId: APP });
  const headers = Object.fromEntries(Object.entries(signed).filter(([name]) => !leaveOut.includes(name.toLowerCase())));
  const url = new URL(path, p.origin);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        // Said outright: Node's client frames a GET's body in chunks only when told to.
        headers: chunked
          ? { ...headers, 'transfer-encoding': 'chunked' }
          : { ...headers, 'content-length': String(body.length) },
      },
      (res) => readCheckedAnswer(res, method, url.pathname).then(resolve, reject),
    );
    req.on('error', reject);
    // Each chunk on its own tick, so the server reads them separately.
    (async () => {
      for (const chunk of chunks) {
        req.write(chunk);
        await new Promise((r) => setTimeout(r, 5));
      }
      req.end();
    })();
  });
}

/** Fills the bucket again (600/min: 60 tokens in 6 s), moving its clock on by 6.2 s instead of waiting for them. */
const refill = async () => {
  skipped += 6_200;
};

describe('the server API rate limit', () => {
  it('admits a burst of 60 of 150 concurrent signed requests, and answers the rest 429 problem details with Retry-After', async () => {
    const path = `/v1/apps/${APP}/installations/au-alice`;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 150 }, async () => {
        const headers = await signRequest({ body: '', secret: p.signingSecret, miniAppId: APP });
        const response = await fetch(`${p.origin}${path}`, { headers });
        return { status: response.status, headers: response.headers, body: (await response.json()) as any };
      }),
    );
    const elapsed = Date.now() - started;
    const admitted = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429);
    // The bucket refills one request per 100 ms while the 150 are served: 60 plus what came back meanwhile.
    expect(admitted).toBeGreaterThanOrEqual(60);
    expect(admitted).toBeLessThanOrEqual(60 + Math.ceil(elapsed / 100));
    expect(admitted + limited.length).toBe(150);
    for (const answer of limited) {
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(answer.body).toMatchObject({ status: 429, instance: path, title: 'Rate limited' });
      expect(answer.body.type).toBe(`${p.origin}/errors/rate-limited`);
      expect(answer.body.detail).toMatch(/retry after \d+ s \(Retry-After\)/);
    }
  });

  it("is what createServerClient's 429 handling waits out: every call lands, the client having been told to wait", async () => {
    await refill();
    const waits: number[] = [];
    const api = createServerClient({
      baseUrl: p.baseUrl,
      miniAppId: APP,
      secret: p.signingSecret,
      rateLimiter: false,
      retry: { max: 10, budgetMs: 60_000 },
      onRateLimited: ({ retryAfter }) => waits.push(retryAfter),
    });
    const results = await Promise.all(Array.from({ length: 70 }, () => api.getInstallation('au-alice')));
    expect(results.every((r) => r.installed === true)).toBe(true);
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits.every((s) => Number.isInteger(s) && s >= 1)).toBe(true);

    await refill();
    const impatient = createServerClient({
      baseUrl: p.baseUrl,
      miniAppId: APP,
      secret: p.signingSecret,
      rateLimiter: false,
      retry: { max: 0 },
    });
    // Far more than the bucket refills while they are served (10 a second), so some are refused.
    const outcomes = await Promise.allSettled(Array.from({ length: 300 }, () => impatient.getInstallation('au-alice')));
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(isSvcApiError(refused[0])).toBe(true);
    expect(refused[0]).toMatchObject({ status: 429, problem: 'rate-limited', retriable: true });
    expect(refused[0].retryAfter).toBeGreaterThanOrEqual(1);
  }, 30_000);
});

describe('the bytes received', () => {
  it('verifies the signature over the exact bytes: a 70 KB accented card posted by createServerClient lands intact', async () => {
    await refill();
    const api = createServerClient({ baseUrl: p.baseUrl, miniAppId: APP, secret: p.signingSecret });
    // Three-byte characters shifted by 0, 1 and 2 bytes: wherever a read ends, one of the three bodies is cut inside
    // a character.
    for (const shift of ['', 'a', 'ab']) {
      const text = `${shift}Déjà vu ${'€'.repeat(24_000)}`;
      expect(Buffer.byteLength(text)).toBeGreaterThan(70_000);
      const { event_id } = await api.postCard('general', {
        app_user_id: 'au-alice',
        card: { title: 'Menu ✓', body: text },
      });
      expect(p.cards('general').find((c) => c.event_id === event_id)).toMatchObject({ card: { body: text } });
    }
  });

  it('keeps a character split between two reads whole', async () => {
    const json = JSON.stringify({ mini_app_id: APP, app_user_id: 'au-alice', card: { title: 'é€😀', body: '€😀é' } });
    const bytes = Buffer.from(json);
    // Cut inside each multi-byte character of the title.
    const at = bytes.indexOf(Buffer.from('é€😀'));
    const cuts = [at + 1, at + 3, at + 6, bytes.length];
    const chunks = cuts.map((end, i) => bytes.subarray(i ? cuts[i - 1] : 0, end));
    const answer = await sendChunks('/v1/rooms/general/cards', chunks);
    expect(answer.status).toBe(201);
    const entry = p.cards('general').find((c) => c.event_id === answer.body.event_id);
    expect(entry?.kind === 'card' && entry.card.title).toBe('é€😀');
  });

  it('reads a body of unknown length (Transfer-Encoding: chunked) as it reads one with a Content-Length', async () => {
    const json = JSON.stringify({ mini_app_id: APP, app_user_id: 'au-alice', card: { title: 'Streamed', body: 'é€' } });
    const bytes = Buffer.from(json);
    const chunks = [bytes.subarray(0, 10), bytes.subarray(10, 40), bytes.subarray(40)];
    const answer = await sendChunks('/v1/rooms/general/cards', chunks, p.signingSecret, 'POST', { chunked: true });
    expect(answer.status).toBe(201);
    const entry = p.cards('general').find((c) => c.event_id === answer.body.event_id);
    expect(entry?.kind === 'card' && entry.card).toMatchObject({ title: 'Streamed', body: 'é€' });
    // A wrong signature over a chunked body is refused as over any other.
    const forged = await sendChunks('/v1/rooms/general/cards', chunks, 'not-the-secret', 'POST', { chunked: true });
    expect(forged.status).toBe(401);
  });

  it('checks the signature of a GET over the bytes it carries too, and asks for a missing X-Svc-Mini-App', async () => {
    const path = `/v1/apps/${APP}/installations/au-alice`;
    const body = Buffer.from('{"why":"a GET that carries a body"}');
    expect((await sendChunks(path, [body], p.signingSecret, 'GET')).status).toBe(200);
    expect((await sendChunks(path, [body], p.signingSecret, 'GET', { chunked: true })).status).toBe(200);
    // Signed over no body but sent with one: the bytes received are not the bytes signed.
    const unsigned = await sendChunks(path, [body], p.signingSecret, 'GET', { signedBody: new Uint8Array() });
    expect(unsigned.status).toBe(401);
    const anonymous = await sendChunks(path, [], p.signingSecret, 'GET', { leaveOut: ['x-svc-mini-app'] });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toBe(
      "the X-Svc-Mini-App header is missing: send this mini app's id in it with every signed request.",
    );
  });

  it("gives a request of another method, its body's length unknown, its route's answer", async () => {
    // fetch sends no Content-Length for an OPTIONS, PUT or DELETE without a body, as a browser's preflight does.
    for (const method of ['OPTIONS', 'PUT', 'DELETE', 'PATCH']) {
      const api = await fetch(`${p.baseUrl}/apps/${APP}/installations/au-alice`, { method });
      expect([method, api.status]).toEqual([method, 401]);
      const controlApi = await fetch(`${p.origin}/__svc/reset`, {
        method,
        headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
      });
      expect([method, controlApi.status]).toEqual([method, 403]);
      expect((await controlApi.json()).detail).toMatch(/^Origin must be /);
    }
  });

  it('answers 400 problem details to a correctly signed body that is not UTF-8', async () => {
    const answer = await sendChunks('/v1/rooms/general/cards', [
      Buffer.from('{"mini_app_id":"polls","app_user_id":"au-alice","card":{"title":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","body":""}}'),
    ]);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.body).toMatchObject({ type: `${p.origin}/errors/invalid-request`, status: 400 });
    expect(answer.body.detail).toMatch(/not valid UTF-8: send JSON encoded as UTF-8/);
  });

  it('answers 400 problem details to malformed percent-encoding in a path', async () => {
    const answer = await sendChunks('/v1/rooms/%E0%A4%A/cards', [Buffer.from('{}')]);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.body).toMatchObject({ status: 400, instance: '/v1/rooms/%E0%A4%A/cards' });
    expect(answer.body.detail).toMatch(/malformed percent-encoding: encode each segment with encodeURIComponent/);
    const get = await sendChunks(`/v1/apps/${APP}/installations/%ZZ`, [], p.signingSecret, 'GET');
    expect(get.status).toBe(400);
  });
});

/** A control API call as the messenger page makes it. */
async function control(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${p.origin}${path}`, {
    method,
    headers: { origin: p.origin, 'x-svc-dev-token': p.controlToken, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as any };
}

/** The problem details shape, with a detail that says what to do (a sentence with a colon and a fix). */
function expectProblem(answer: { status: number; type: string | null; body: any }, status: number, detail: RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.type).toBe('application/problem+json');
  expect(answer.body).toMatchObject({
    status,
    type: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/errors\/[a-z-]+$/),
  });
  expect(typeof answer.body.title).toBe('string');
  expect(typeof answer.body.instance).toBe('string');
  expect(answer.body.detail).toMatch(detail);
  expect(answer.body.detail).toMatch(/^[A-Za-z_].*: .*\.$/);
}

describe('size limits', () => {
  it('answers 413 problem details to a signed 10 MB card, and stores nothing', async () => {
    const before = p.cards().length;
    const body = JSON.stringify({
      mini_app_id: APP,
      app_user_id: 'au-alice',
      card: { title: 'x', body: 'a'.repeat(10_000_000) },
    });
    const headers = await signRequest({ body, secret: p.signingSecret, miniAppId: APP });
    const response = await fetch(`${p.baseUrl}/rooms/general/cards`, { method: 'POST', headers, body });
    expectProblem(
      { status: response.status, type: response.headers.get('content-type'), body: await response.json() },
      413,
      new RegExp(`more than the ${SERVER_API_LIMITS.serverApiBody} this endpoint accepts: send a smaller body`),
    );
    expect(p.cards().length).toBe(before);
  });

  it('answers 413 to a chunked body over the limit, and to a chunked control body over its limit', async () => {
    const before = p.cards().length;
    const chunk = Buffer.from('a'.repeat(512 * 1024));
    const answer = await sendChunks(
      '/v1/rooms/general/cards',
      [chunk, chunk, chunk, chunk, chunk],
      p.signingSecret,
      'POST',
      {
        chunked: true,
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.body.detail).toMatch(
      `more than the ${SERVER_API_LIMITS.serverApiBody} this endpoint accepts: send a smaller body`,
    );
    expect(p.cards().length).toBe(before);
    // The control API as a page streaming its body would send it (fetch with a ReadableStream: chunked).
    const streamed = (text: string) =>
      fetch(`${p.origin}/__svc/message`, {
        method: 'POST',
        headers: { origin: p.origin, 'x-svc-dev-token': p.controlToken, 'content-type': 'application/json' },
        body: new Blob([text]).stream(),
        duplex: 'half',
      } as RequestInit);
    const big = await streamed(JSON.stringify({ room_id: 'general', text: 'a'.repeat(70_000) }));
    expect(big.status).toBe(413);
    const small = await streamed(JSON.stringify({ room_id: 'general', text: 'streamed hello' }));
    expect(small.status).toBeLessThan(300);
    expect(p.state.rooms.find((r) => r.id === 'general')?.timeline.at(-1)).toMatchObject({ text: 'streamed hello' });
  });

  it('answers 400 naming the field and its bound to a card body over 100,000 characters', async () => {
    await refill();
    const api = createServerClient({ baseUrl: p.baseUrl, miniAppId: APP, secret: p.signingSecret, retry: { max: 0 } });
    const error = await api
      .postCard('general', { app_user_id: 'au-alice', card: { title: 'x', body: 'a'.repeat(100_001) } })
      .catch((e) => e);
    expect(error).toMatchObject({ status: 400, problem: 'invalid-request' });
    expect(error.detail).toBe('card.body has 100001 characters: send at most 100000.');
    const tooMany = await api
      .postCard('general', {
        app_user_id: 'au-alice',
        card: { title: 'x', body: 'y', actions: Array.from({ length: 6 }, () => ({ label: 'a', deep_link: '/a' })) },
      })
      .catch((e) => e);
    expect(tooMany.detail).toBe('card.actions has 6 actions: send at most 5.');
  });

  it('answers 413 to a 10 MB control body, and 400 to a control value of the wrong shape', async () => {
    expectProblem(
      await control('POST', '/__svc/message', { room_id: 'general', text: 'a'.repeat(10_000_000) }),
      413,
      /65536/,
    );
    expectProblem(await control('PATCH', '/__svc/settings', { locale: {} }), 400, /^locale must be a string/);
    expectProblem(
      await control('PATCH', '/__svc/settings', { locale: 'not a tag!' }),
      400,
      /^locale is not a language tag/,
    );
    expectProblem(
      await control('POST', '/__svc/message', { room_id: 'general', text: 'a'.repeat(10_001) }),
      400,
      /^text is longer than 10000 characters/,
    );
    expectProblem(await control('POST', '/__svc/rotate-secret', { overlap_seconds: 40 * 86400 }), 400, /30 days/);
    expectProblem(
      await control('POST', '/__svc/rotate-secret', { overlap_seconds: 'Infinity' }),
      400,
      /overlap_seconds must be a number: send whole seconds/,
    );
    expectProblem(
      await control('POST', '/__svc/deliveries/test', { event: 'user.left' }),
      400,
      /^event is not known: send one of installation.created, .*app.revoked\.$/,
    );
    // This platform has no webhook URL: a test event says where to set one instead of vanishing.
    expectProblem(
      await control('POST', '/__svc/deliveries/test', { event: 'scope.granted' }),
      400,
      /no webhook URL to send to: start svc dev with --webhooks <url>/,
    );
    expect(p.state.secret.generation).toBe(1);
    expect(p.state.settings.locale).toBe('en');
  });

  it('answers 400 naming a field the route does not have, and does nothing, where it would act on the default', async () => {
    const grants = JSON.stringify(p.state.grants);
    // `user` for `user_id` would grant the current person the scope, without a word.
    expectProblem(
      await control('POST', '/__svc/grant', { user: 'bob', scope: 'messages.send' }),
      400,
      /^unknown field "user": the fields are user_id, scope\.$/,
    );
    expect(JSON.stringify(p.state.grants)).toBe(grants);
    expectProblem(
      await control('PATCH', '/__svc/settings', { theme: 'dark', colour: 'red', size: 2 }),
      400,
      /^unknown fields "colour", "size": the fields are theme, locale, current_user_id, current_room_id\.$/,
    );
    expect(p.state.settings.theme).not.toBe('dark');
    expectProblem(
      await control('POST', '/__svc/message', {
        room_id: 'general',
        text: 'hi',
        card: { title: 't', body: 'b', actions: [{ label: 'Open', deep_link: '/x', href: '/x' }] },
      }),
      400,
      /^card\.actions\.0: unknown field "href": the fields are label, deep_link\.$/,
    );
    // A misspelt field is missing too: the answer names the one to rename, not the one to add.
    expectProblem(
      await control('POST', '/__svc/message', { roomid: 'general', text: 'hi' }),
      400,
      /^unknown field "roomid": the fields are /,
    );
    // A route that takes no field: {"user": …} to reset would have reset everything.
    const rooms = p.state.rooms.length;
    expectProblem(
      await control('POST', '/__svc/reset', { user: 'bob' }),
      400,
      /^unknown field "user": this route takes none, send \{\}\.$/,
    );
    expect(p.state.rooms.length).toBe(rooms);
    // A key given twice: JSON.parse keeps the last, a proxy or a log in front of the platform may keep the first.
    expectProblem(
      await control('POST', '/__svc/grant', '{"user_id": "bob", "scope": "messages.send", "user_id": "carol"}'),
      400,
      /^The body repeats the field "user_id" in \$: send each field once \(JSON parsers differ on which one counts\)\.$/,
    );
    expectProblem(
      await control('POST', '/__svc/grant', '{"user_id": "bob", "scope": "messages.send", "\\u0073cope": "x"}'),
      400,
      /^The body repeats the field "scope" in \$: /,
    );
    expect(JSON.stringify(p.state.grants)).toBe(grants);
    // Thousands of them: three named (quoted: one may hold an invisible character), then a count.
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 1]));
    const answer = await control('POST', '/__svc/grant', { ...many, 'user_id\u200b': 'bob', scope: 'x' });
    expectProblem(answer, 400, /^unknown fields "k0", "k1", "k2" and 4998 more: the fields are user_id, scope\.$/);
    expect(answer.body.detail.length).toBeLessThan(200);
  });
});

describe('problem details everywhere', () => {
  it('answers control API and routing errors as problem details with a fix', async () => {
    expectProblem(
      await control('POST', '/__svc/nope', {}),
      404,
      /^There is no control route POST \/__svc\/nope: use one of/,
    );
    expectProblem(await control('POST', '/__svc/install', {}, { 'x-svc-dev-token': 'wrong' }), 403, /x-svc-dev-token/);
    expectProblem(await control('POST', '/__svc/install', '[1]'), 400, /must be a JSON object/);
    expectProblem(await control('POST', '/__svc/install', '{'), 400, /not JSON/);
    expectProblem(
      await control('POST', '/__svc/install', { user_id: 'zed' }),
      400,
      /^user_id zed is unknown: send one of alice, bob, carol\.$/,
    );
    const missing = await control('GET', '/nowhere');
    expectProblem(missing, 404, /There is no route \/nowhere/);
    // The type URI resolves.
    const page = await fetch(missing.body.type);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/^not-found \(404\): /);
  });

  it('says what to do in every server API refusal', async () => {
    await refill();
    const api = createServerClient({ baseUrl: p.baseUrl, miniAppId: APP, secret: p.signingSecret, retry: { max: 0 } });
    const refusals = await Promise.all([
      api.postCard('nowhere', { app_user_id: 'au-alice', card: { title: 'x', body: 'y' } }).catch((e) => e),
      api.postCard('general', { app_user_id: 'au-zed', card: { title: 'x', body: 'y' } }).catch((e) => e),
      api.getInstallation('au-zed').catch((e) => e),
      api.verifyAgent(await p.appToken()).catch((e) => e),
      createServerClient({ baseUrl: p.baseUrl, miniAppId: 'other', secret: p.signingSecret, retry: { max: 0 } })
        .getInstallation('au-alice')
        .catch((e) => e),
    ]);
    for (const error of refusals) {
      expect(isSvcApiError(error)).toBe(true);
      expect(error.detail).toMatch(/^[A-Za-z_].*: .*\.$/);
    }
    expect(refusals[0].detail).toMatch(/room "nowhere" is unknown: post into a room/);
    expect(refusals[3].detail).toMatch(/no act claim, so no agent is acting: call \/agents\/verify only with/);
  });

  it('gives each 401 and 429 one piece of advice, said once', async () => {
    await refill();
    const wrong = createServerClient({ baseUrl: p.baseUrl, miniAppId: APP, secret: 'not-it', retry: { max: 0 } });
    const unsigned = await wrong.getInstallation('au-alice').catch((e) => e);
    expect(unsigned.status).toBe(401);
    expect(unsigned.message).toBe(
      `401 invalid-signature at /v1/apps/${APP}/installations/au-alice: The signature matches neither the current signing secret nor, during a rotation, the previous one: sign v0:<timestamp>:<the exact body bytes sent> with the current secret: the lowercase hex HMAC-SHA256, keyed with its UTF-8 bytes, written v0=<64 hex digits>.`,
    );
    // No client-side pacing: the platform's bucket answers.
    const api = createServerClient({
      baseUrl: p.baseUrl,
      miniAppId: APP,
      secret: p.signingSecret,
      retry: { max: 0 },
      rateLimiter: false,
    });
    const answers = await Promise.all(
      Array.from({ length: 80 }, () => api.getInstallation('au-alice').catch((e) => e)),
    );
    const limited = answers.find((a) => isSvcApiError(a) && a.status === 429);
    expect(limited.message).toMatch(
      /^429 rate-limited at \S+: More than 600 requests a minute \(burst 60\) for this vendor: retry after \d+ s \(Retry-After\)\.$/,
    );
  });
});
