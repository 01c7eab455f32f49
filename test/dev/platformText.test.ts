// Text in the server API over real HTTP on loopback, against startDevPlatform serving a mini app whose manifest
// declares non-ASCII routes: what the field bounds allow fits the body cap however it is encoded, and text that is
// not text (a lone surrogate, another charset) is refused naming the field.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevEvent, type DevPlatform, formatDevEvent, startDevPlatform } from '../../src/dev';
import { signRequest } from '../../src/server';
import { SERVER_API_LIMITS } from '../../src/server/serverApiLimits';
import { readCheckedAnswer } from '../helpers/serverApiContract';
import { writeAppDir } from './appDir';

const APP = '0123456789abcdef';
let p: DevPlatform;
const events: DevEvent[] = [];

beforeAll(async () => {
  const dir = await writeAppDir((manifest) => {
    manifest.routes = [
      { path: '/', title: 'Home' },
      { path: '/café', title: 'Café' },
      { path: '/p/:id', title: 'Poll' },
    ];
  });
  p = await startDevPlatform({ dir, port: 0, onEvent: (event) => events.push(event) });
});
afterAll(() => p.close());

/**
 * Sends `body` (text as it is, or exact bytes) signed over its bytes, with `headers` over the signing ones, through
 * node:http (fetch would normalise a Content-Type and cannot send bytes in a header), and checks the answer against
 * the published contract.
 */
async function send(path: string, body: string | Uint8Array, headers: Record<string, string> = {}, method = 'POST') {
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
  const signed = await signRequest({ body: bytes, secret: p.signingSecret, miniAppId: APP });
  const url = new URL(path, p.origin);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, headers: { ...signed, 'content-length': String(bytes.length), ...headers } },
      (res) => readCheckedAnswer(res, method, url.pathname).then(resolve, reject),
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

/** A card body for the room every person of svc dev is in. */
const cardJson = (card: Record<string, unknown>) => JSON.stringify({ mini_app_id: APP, app_user_id: 'au-alice', card });

/** JSON as an encoder that writes ASCII only (Python's json.dumps by default): every other character a \u escape. */
const asciiJson = (json: string) =>
  json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('the server API body cap', () => {
  it('takes a card with every field at its bound in emoji, as raw UTF-8 and as ASCII-only JSON', async () => {
    const L = SERVER_API_LIMITS;
    const card = {
      title: '😀'.repeat(L.cardTitle),
      body: '😀'.repeat(L.cardBody),
      actions: Array.from({ length: L.cardActions }, () => ({
        label: '😀'.repeat(L.actionLabel),
        deep_link: `/p/${'😀'.repeat(L.deepLink - 3)}`,
      })),
    };
    for (const json of [cardJson(card), asciiJson(cardJson(card))]) {
      expect(Buffer.byteLength(json)).toBeGreaterThan(256 * 1024);
      const answer = await send('/v1/rooms/general/cards', json);
      expect(answer.status).toBe(201);
      const posted = p.cards('general').find((c) => c.event_id === answer.body.event_id);
      expect(posted?.kind === 'card' && posted.card.body).toBe(card.body);
    }
  });
});

describe('text that is not text', () => {
  it('refuses a lone surrogate sent as a \\u escape with 400 naming the field, and stores nothing', async () => {
    const before = p.cards().length;
    // JSON.stringify writes a lone surrogate as the escape \ud800, as a backend holding one would send it.
    const title = await send('/v1/rooms/general/cards', cardJson({ title: 'T \ud800', body: '' }));
    expect(title.status).toBe(400);
    expect(title.body.detail).toBe(
      'card.title contains a lone surrogate (U+D800) at character 3: send well-formed Unicode text (a \\u escape of a surrogate, \\ud800 to \\udfff, must be one of a high-low pair).',
    );
    const label = await send(
      '/v1/rooms/general/cards',
      cardJson({ title: 'T', body: '😀\udc00', actions: [{ label: 'x', deep_link: '/' }] }),
    );
    expect(label.body.detail).toMatch(/^card\.body contains a lone surrogate \(U\+DC00\) at character 2: /);
    const key = await send('/v1/rooms/general/cards', cardJson({ title: 'T', body: '', '\ud800x': 1 }));
    expect(key.body.detail).toMatch(
      /^card\["\\ud800x"\] has a name with a lone surrogate \(U\+D800\) at character 1: /,
    );
    const note = await send(
      '/v1/users/au-alice/notifications',
      JSON.stringify({ mini_app_id: APP, title: 'T', body: 'x\ud83d', deep_link: '/' }),
    );
    expect([note.status, note.body.detail]).toEqual([400, expect.stringMatching(/^body contains a lone surrogate/)]);
    // A pair written as two escapes is one character, and lands.
    const pair = await send('/v1/rooms/general/cards', asciiJson(cardJson({ title: 'T 😀', body: '' })));
    expect(pair.status).toBe(201);
    expect(p.cards().length).toBe(before + 1);
  });

  it('refuses a lone surrogate in a message the page posts, in the same words as the server API', async () => {
    const response = await fetch(`${p.origin}/__svc/message`, {
      method: 'POST',
      headers: { origin: p.origin, 'x-svc-dev-token': p.controlToken, 'content-type': 'application/json' },
      body: JSON.stringify({ room_id: 'general', text: 'hi \ud800' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toBe(
      'text contains a lone surrogate (U+D800) at character 4: send well-formed Unicode text (a \\u escape of a surrogate, \\ud800 to \\udfff, must be one of a high-low pair).',
    );
    // Nor an id: an actor token whose sub holds half a character, which no strict JSON reader could keep.
    const agent = await fetch(`${p.origin}/__svc/subject-token`, {
      method: 'POST',
      headers: { origin: p.origin, 'x-svc-dev-token': p.controlToken, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'a\ud800' }),
    });
    expect(agent.status).toBe(400);
    expect(((await agent.json()) as { detail: string }).detail).toMatch(
      /^agent_id contains a lone surrogate \(U\+D800\)/,
    );
    // Nor the person or room a page says it launched the app for, which the terminal prints.
    const launch = await fetch(`${p.origin}/__svc/page-event`, {
      method: 'POST',
      headers: { origin: p.origin, 'x-svc-dev-token': p.controlToken, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'launch', user: 'alice', room: 'gen\udc00' }),
    });
    expect(launch.status).toBe(400);
    expect(((await launch.json()) as { detail: string }).detail).toMatch(/^room contains a lone surrogate \(U\+DC00\)/);
  });

  it('refuses a body that repeats a key, where it is, and posts nothing', async () => {
    const before = p.cards().length;
    const head = `{"mini_app_id": "${APP}", "app_user_id": "au-alice", "card": `;
    // JSON.parse would post the second title; a parser that keeps the first (a proxy, a log) would see another card.
    const top = await send('/v1/rooms/general/cards', `${head}{"title": "A", "body": "", "title": "B"}}`);
    expect([top.status, top.body.detail]).toEqual([
      400,
      'The body repeats the field "title" in $.card: send each field once (JSON parsers differ on which one counts).',
    ]);
    const escaped = await send(
      '/v1/users/au-alice/notifications',
      `{"mini_app_id": "${APP}", "title": "T", "body": "x", "deep_link": "/", "\\u0062ody": "y"}`,
    );
    expect([escaped.status, escaped.body.detail]).toEqual([
      400,
      expect.stringMatching(/^The body repeats the field "body" in \$: /),
    ]);
    // The same key in two objects is no repeat.
    const fine = await send(
      '/v1/rooms/general/cards',
      `${head}{"title": "T", "body": "", "actions": [{"label": "a", "deep_link": "/"}, {"label": "b", "deep_link": "/"}]}}`,
    );
    expect([fine.status, fine.body.detail]).toEqual([201, undefined]);
    expect(p.cards().length).toBe(before + 1);
    // Nested past the bound, in a field the contract does not name: refused naming where, at once (a body 100,000
    // deep took a minute to check, and held the platform meanwhile). 64 deep is taken.
    const deep = (n: number) => `${head}{"title": "T", "body": ""}, "x": ${'['.repeat(n)}${']'.repeat(n)}}`;
    const refused = await send('/v1/rooms/general/cards', deep(100_000));
    expect([refused.status, refused.body.detail]).toEqual([
      400,
      expect.stringMatching(
        /^The body nests arrays and objects more than 64 deep \(at \$\.x(\[0\])+…\): no field needs that many; send the fields the request names\.$/,
      ),
    ]);
    expect((await send('/v1/rooms/general/cards', deep(63))).status).toBe(201);
    expect((await send('/v1/rooms/general/cards', deep(64))).status).toBe(400);
  });

  it('refuses a charset other than utf-8 with 400 saying to send UTF-8, and takes utf-8 in any spelling', async () => {
    const json = cardJson({ title: 'Café', body: '' });
    for (const type of ['application/json; charset=utf-16', 'application/json;charset="ISO-8859-1"']) {
      const answer = await send('/v1/rooms/general/cards', json, { 'content-type': type });
      expect(answer.status, type).toBe(400);
      expect(answer.body.detail, type).toMatch(
        /^The Content-Type header is ".*", which names the charset ".*": send the JSON body encoded as UTF-8, with charset=utf-8 or no charset\.$/,
      );
    }
    for (const type of ['application/json; charset=UTF-8', 'application/json; charset="utf-8"', 'application/json'])
      expect((await send('/v1/rooms/general/cards', json, { 'content-type': type })).status, type).toBe(201);
  });

  it('quotes ids and header values with JSON escapes, so a trailing space or a byte beyond ASCII shows', async () => {
    const spaced = await send(`/v1/apps/${APP}/installations/au-alice%20`, '', {}, 'GET');
    expect(spaced.status).toBe(404);
    expect(spaced.body.detail).toMatch(/^app_user_id "au-alice " is unknown or left the tenant: /);
    const room = await send('/v1/rooms/gen%C3%A9ral/cards', cardJson({ title: 'T', body: '' }));
    expect(room.body.detail).toMatch(/^room "gen\\u00e9ral" is unknown: /);
    // The header's bytes C3 A9 (é in UTF-8) arrive as two Latin-1 characters: shown as such, not as mojibake.
    const type = await send('/v1/rooms/general/cards', cardJson({ title: 'T', body: '' }), {
      'content-type': Buffer.from('application/jsoné').toString('latin1'),
    });
    expect(type.body.detail).toBe(
      'The Content-Type header is "application/json\\u00c3\\u00a9": send the JSON body with Content-Type: application/json.',
    );
  });
});

describe('a token where an id goes', () => {
  it('is not answered back in the problem, nor printed on the terminal', async () => {
    // A backend whose room id variable held the app's token: the request is refused, and the token stays out of the
    // answer (problems get logged) and of the terminal's line.
    const token = `eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImF1ZCI6InN2YyJ9.${'c2lnbmF0dXJl'.repeat(7)}`;
    const answer = await send(`/v1/rooms/${token}/cards`, cardJson({ title: 'Hi' }));
    expect(answer.status).toBe(400);
    expect(answer.body.instance).toBe('/v1/rooms/[redacted]/cards');
    expect(JSON.stringify(answer.body)).not.toContain('c2lnbmF0dXJl');
    const line = events
      .filter((e) => e.type === 'server-api')
      .map((e) => formatDevEvent(e))
      .at(-1);
    expect(line).toMatch(/<-- POST \/v1\/rooms\/\[redacted\]\/cards: 400/);
    // A token whose part holds an encoded zero-width space or line break, and the signing secret itself.
    const at = 60;
    for (const hidden of ['%E2%80%8B', '%0A']) {
      const path = `/v1/rooms/${token.slice(0, at)}${hidden}${token.slice(at)}/cards`;
      const refused = await send(path, cardJson({ title: 'Hi' }));
      expect(JSON.stringify(refused.body)).not.toContain('c2lnbmF0dXJl');
      expect(formatDevEvent(events.filter((e) => e.type === 'server-api').at(-1)!)).not.toContain('c2lnbmF0dXJl');
    }
    const secretPath = await send(`/v1/rooms/${p.signingSecret}/cards`, cardJson({ title: 'Hi' }));
    expect(JSON.stringify(secretPath.body)).not.toContain(p.signingSecret);
    expect(formatDevEvent(events.filter((e) => e.type === 'server-api').at(-1)!)).not.toContain(p.signingSecret);
    // Every terminal line is redacted, whatever its event: an agent's blocked request naming a token too.
    expect(formatDevEvent({ type: 'blocked', blocked: `https://x.test/?t=${token}`, advice: 'no' })).not.toContain(
      'c2ln',
    );
  });
});

describe('deep links', () => {
  /** Posts a card whose one action opens `deep_link`. */
  const postLink = (deep_link: string) =>
    send('/v1/rooms/general/cards', cardJson({ title: 'T', body: '', actions: [{ label: 'Open', deep_link }] }));

  it('opens a declared route written percent-encoded, as a URL library writes it, or decomposed', async () => {
    for (const link of [
      '/café',
      '/caf%C3%A9',
      '/CAF%c3%a9'.toLowerCase(),
      '/cafe\u0301',
      '/p/caf%C3%A9?tab=r%C3%A9sultats',
    ])
      expect((await postLink(link)).status, link).toBe(201);
  });

  it('refuses malformed percent-encoding with 400 naming the field, as in a notification', async () => {
    const card = await postLink('/p/%E0%A4%A');
    expect([card.status, card.body.detail]).toEqual([
      400,
      'card.actions[0].deep_link "/p/%E0%A4%A" has malformed percent-encoding: encode each segment of its path with encodeURIComponent.',
    ]);
    const note = await send(
      '/v1/users/au-alice/notifications',
      JSON.stringify({ mini_app_id: APP, title: 'T', body: 'B', deep_link: '/caf%C3' }),
    );
    expect([note.status, note.body.detail]).toEqual([
      400,
      'deep_link "/caf%C3" has malformed percent-encoding: encode each segment of its path with encodeURIComponent.',
    ]);
    // In the query too: the app would get U+FFFD for it.
    const query = await postLink('/p/1?tab=%ZZ');
    expect([query.status, query.body.detail]).toEqual([
      400,
      'card.actions[0].deep_link "/p/1?tab=%ZZ" has malformed percent-encoding in its query: encode each name and value with encodeURIComponent.',
    ]);
  });

  it('refuses a fragment, which would reach the app inside a parameter, in a card and a notification', async () => {
    const card = await postLink('/p/r%C3%A9sultats#votes');
    expect([card.status, card.body.detail]).toEqual([
      400,
      'card.actions[0].deep_link "/p/r%C3%A9sultats#votes" has a fragment ("#votes"), which no route holds: drop it, or send what it says as a query parameter (?section=…), or percent-encode a # that belongs to a value (%23).',
    ]);
    const note = await send(
      '/v1/users/au-alice/notifications',
      JSON.stringify({ mini_app_id: APP, title: 'T', body: 'B', deep_link: '/?tab=1#top' }),
    );
    expect([note.status, note.body.detail]).toEqual([
      400,
      'deep_link "/?tab=1#top" has a fragment ("#top"), which no route holds: drop it, or send what it says as a query parameter (?section=…), or percent-encode a # that belongs to a value (%23).',
    ]);
    // A # that belongs to a value is percent-encoded, and opens the route with it.
    expect((await postLink('/p/%23votes')).status).toBe(201);
  });

  it('refuses a raw space or control character naming the field, the character and its encoding', async () => {
    const space = await postLink('/p/a b');
    expect([space.status, space.body.detail]).toEqual([
      400,
      'card.actions[0].deep_link "/p/a b" holds a space (U+0020) at character 5: percent-encode it (%20), as encodeURIComponent does.',
    ]);
    const nul = await postLink('/p/\u0000');
    expect(nul.body.detail).toBe(
      'card.actions[0].deep_link "/p/\\u0000" holds a control character (U+0000) at character 4: percent-encode it (%00), as encodeURIComponent does.',
    );
    expect((await postLink('/p/a%20b')).status).toBe(201);
  });

  it('shows a look-alike of a declared route with \\u escapes, so the refusal does not print the route itself', async () => {
    // A Cyrillic а (U+0430) in place of the Latin a.
    const lookalike = await postLink('/c\u0430fé');
    expect(lookalike.status).toBe(400);
    expect(lookalike.body.detail).toBe(
      'card.actions[0].deep_link "/c\\u0430f\\u00e9" is not a route manifest.json declares, so no person could open it: send a path that matches one of "/", "/caf\\u00e9", "/p/:id" (each segment is compared percent-decoded).',
    );
  });
});

/** Sends `head` as raw bytes on a fresh connection (no client would send it) and reads the whole answer. */
function sendRaw(head: Buffer): Promise<string> {
  const { port } = new URL(p.origin);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(head));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

describe('a request that is not HTTP/1.1 as written', () => {
  it('is answered 400 as problem details saying what to send, where Node would send a bare 400', async () => {
    const cases = [
      [
        Buffer.from('POST /v1/rooms/caf\xc3\xa9/cards HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'latin1'),
        '/v1/rooms/caf%C3%A9/cards',
        /^The request is not HTTP\/1\.1 as written \(Invalid char in url path\): percent-encode each path segment /,
      ],
      [
        Buffer.from('GET /v1/apps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Svc-Mini-App: a\x01b\r\n\r\n', 'latin1'),
        '/v1/apps',
        /\(Invalid header value char\): send each header name as a token .* no control character\.$/,
      ],
      [
        Buffer.from('POST /v1/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'),
        '/v1/x',
        /\(Duplicate Content-Length\): send one Content-Length header\.$/,
      ],
    ] as const;
    for (const [head, instance, detail] of cases) {
      const answer = await sendRaw(head);
      const [top = '', body = ''] = answer.split('\r\n\r\n');
      expect(top).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(top).toContain('content-type: application/problem+json');
      const problem = JSON.parse(body);
      expect(problem).toMatchObject({ type: `${p.origin}/errors/invalid-request`, status: 400, instance });
      expect(problem.detail).toMatch(detail);
    }
    // Headers past Node's limit keep Node's own 431; the server answers the next connection as before.
    expect(await sendRaw(Buffer.from(`GET / HTTP/1.1\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`))).toMatch(
      /^HTTP\/1\.1 431 /,
    );
    expect(await sendRaw(Buffer.from('GET /v1/nope HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'))).toMatch(
      /^HTTP\/1\.1 40[14] /,
    );
  });
});
