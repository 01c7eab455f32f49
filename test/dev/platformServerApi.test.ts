import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestBucket, handleServerApi, type ServerApiContext } from '../../src/dev/platform/handleServerApi';
import type { DevState } from '../../src/dev/devContract';
import { signRequest } from '../../src/server';

const APP = 'polls';
let secrets = ['s3cret-current'];
let take = createRequestBucket();
const state: DevState = {
  mini_app_id: APP,
  version: '1.0.0',
  users: [{ id: 'u1', app_user_id: 'au1', display_name: 'Ada', tenant_id: 't1' }],
  tenants: [{ id: 't1', name: 'Acme', max_approval_minor: 5000, currency_code: 'EUR' }],
  rooms: [
    { id: 'plain', name: 'General', is_encrypted: false, members: ['u1'], timeline: [] },
    { id: 'secret', name: 'Board', is_encrypted: true, members: ['u1'], timeline: [] },
  ],
  installations: [{ user_id: 'u1', mini_app_id: APP, version: '1.0.0', installed: true, installed_at: '' }],
  grants: [{ user_id: 'u1', mini_app_id: APP, scopes: [] }],
  notifications: [],
  deliveries: [],
  settings: { theme: 'light', locale: 'en', current_user_id: 'u1', current_room_id: 'plain' },
  secret: { generation: 1 },
};
const ctx: ServerApiContext = {
  state,
  errorsUrl: 'https://errors.svc.test',
  secrets: () => secrets,
  take: () => take(),
  verifyToken: async () => ({}),
  notificationsScope: 'svc.notifications',
  changed: () => {},
};
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const answer = await handleServerApi(
      { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body },
      ctx,
    );
    res.writeHead(answer.status, answer.headers).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

async function call(method: string, path: string, payload?: unknown, secret = secrets[0] ?? '') {
  const body = payload === undefined ? '' : JSON.stringify(payload);
  const headers = await signRequest({ body, secret, miniAppId: APP });
  const response = await fetch(`${base}${path}`, { method, headers, body: method === 'GET' ? undefined : body });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}
const card = { title: 'Lunch?', body: 'Vote', actions: [{ label: 'Open', deep_link: '/poll/1' }] };

describe('the server API emulator', () => {
  it('posts a card into a plain room and refuses an encrypted one with 409 room-encrypted', async () => {
    const ok = await call('POST', '/v1/rooms/plain/cards', { mini_app_id: APP, app_user_id: 'au1', card });
    expect(ok.status).toBe(201);
    expect(state.rooms[0]?.timeline[0]).toMatchObject({ kind: 'card', event_id: ok.body.event_id, card });
    const refused = await call('POST', '/v1/rooms/secret/cards', { mini_app_id: APP, app_user_id: 'au1', card });
    expect(refused.status).toBe(409);
    expect(refused.body.type).toMatch(/room-encrypted$/);
    expect(state.rooms[1]?.timeline).toHaveLength(0);
  });

  it('refuses notifications with 403 scope-not-granted until the person grants them', async () => {
    const note = { mini_app_id: APP, title: 'Poll closed', body: 'See results', deep_link: '/poll/1' };
    const refused = await call('POST', '/v1/users/au1/notifications', note);
    expect(refused.status).toBe(403);
    expect(refused.body.type).toMatch(/scope-not-granted$/);
    state.grants[0]?.scopes.push('svc.notifications');
    expect((await call('POST', '/v1/users/au1/notifications', note)).status).toBe(201);
    expect(state.notifications[0]).toMatchObject({ user_id: 'u1', deep_link: '/poll/1' });
    const installation = await call('GET', `/v1/apps/${APP}/installations/au1`);
    expect(installation.body).toEqual({
      installed: true,
      version: '1.0.0',
      granted_scopes: ['svc.notifications'],
      tenant_id: 't1',
    });
  });

  it('answers 404 for unknown ids and 400 naming the field', async () => {
    const nope = await call('POST', '/v1/rooms/nope/cards', { mini_app_id: APP, app_user_id: 'au1', card });
    expect(nope.status).toBe(404);
    // The rooms named are the person's own, and none for a person not known.
    expect(nope.body.detail).toBe(
      'room "nope" is unknown: post into a room the person is in, as svc.room.current() names it ("au1" is in "plain", "secret").',
    );
    const nobody = await call('POST', '/v1/rooms/nope/cards', { mini_app_id: APP, app_user_id: 'au9', card });
    expect(nobody.body.detail).toBe(
      'room "nope" is unknown: post into a room the person is in, as svc.room.current() names it.',
    );
    const nullBody = await call('POST', '/v1/rooms/plain/cards', {
      mini_app_id: APP,
      app_user_id: 'au1',
      card: { title: 'T', body: null },
    });
    expect(nullBody.body.detail).toBe('card.body must be a string: send the card text as a string (it may be empty).');
    expect((await call('GET', `/v1/apps/${APP}/installations/nobody`)).status).toBe(404);
    const bad = await call('POST', '/v1/rooms/plain/cards', { app_user_id: 'au1', card });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/mini_app_id/);
  });

  it('refuses a wrong signature, accepts old and new secrets during a rotation', async () => {
    const wrong = await call('GET', `/v1/apps/${APP}/installations/au1`, undefined, 'not-the-secret');
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).not.toContain('not-the-secret');
    secrets = ['s3cret-new', 's3cret-current'];
    expect((await call('GET', `/v1/apps/${APP}/installations/au1`, undefined, 's3cret-current')).status).toBe(200);
    expect((await call('GET', `/v1/apps/${APP}/installations/au1`, undefined, 's3cret-new')).status).toBe(200);
    secrets = ['s3cret-new'];
    expect((await call('GET', `/v1/apps/${APP}/installations/au1`, undefined, 's3cret-current')).status).toBe(401);
  });

  it('names the methods and paths that exist: 405 with Allow for another method, 404 listing the four endpoints', async () => {
    const wrongMethod = await call('GET', '/v1/rooms/plain/cards');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(wrongMethod.body.detail).toBe(
      '/v1/rooms/plain/cards does not take GET: send POST /v1/rooms/{room_id}/cards.',
    );
    const nowhere = await call('POST', '/v1/room/plain/card', {});
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.detail).toBe(
      'There is no server API endpoint POST /v1/room/plain/card: the endpoints are POST /v1/rooms/{room_id}/cards, ' +
        'POST /v1/users/{app_user_id}/notifications, GET /v1/apps/{mini_app_id}/installations/{app_user_id}, POST /v1/agents/verify.',
    );
    expect(nowhere.body.detail).not.toMatch(/docs\//);
  });

  it('answers HEAD wherever GET is (RFC 9110): the same status and headers, no body; Allow names it', async () => {
    const path = `/v1/apps/${APP}/installations/au1`;
    const headers = await signRequest({ body: '', secret: secrets[0] ?? '', miniAppId: APP });
    const get = await fetch(`${base}${path}`, { headers });
    const head = await fetch(`${base}${path}`, { method: 'HEAD', headers });
    expect(head.status).toBe(get.status);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await head.text()).toBe('');
    // Unsigned, as a GET would be: refused the same way.
    expect((await fetch(`${base}${path}`, { method: 'HEAD' })).status).toBe(401);
    // Another method is told so whatever body it carries: none, or one that is no JSON object.
    for (const body of [{}, undefined, 'not an object']) {
      const post = await call('POST', path, body);
      expect([post.status, post.headers.get('allow')], String(body)).toEqual([405, 'GET, HEAD']);
    }
  });

  it('refuses a doubled or trailing slash, and an empty id, with 404 saying how to join the path', async () => {
    for (const path of ['/v1//rooms/plain/cards', '/v1/rooms/plain/cards/', '/v1/rooms//cards']) {
      const answer = await call('POST', path, { mini_app_id: APP, app_user_id: 'au1', card });
      expect(answer.status, path).toBe(404);
      expect(answer.body.detail, path).toBe(
        `The path ${path} has an empty segment (a doubled or trailing slash): join the base URL, which ends in /v1, ` +
          "and the endpoint's path with one slash, as in /v1/rooms/{room_id}/cards, and check that no id in it is empty.",
      );
    }
    expect((await call('POST', '/v1/rooms/plain/cards', { mini_app_id: APP, app_user_id: 'au1', card })).status).toBe(
      201,
    );
  });

  it('bounds an id in the path as in a body: 400 naming it, counted in characters (an emoji is one)', async () => {
    const card = { mini_app_id: APP, app_user_id: 'au1', card: { title: 'T', body: '' } };
    const room = await call('POST', `/v1/rooms/${'r'.repeat(257)}/cards`, card);
    expect(room.status).toBe(400);
    expect(room.body.detail).toBe('room_id has 257 characters: send at most 256.');
    const fox = (n: number) => encodeURIComponent('🦊'.repeat(n));
    const user = await call('GET', `/v1/apps/${APP}/installations/${fox(257)}`);
    expect(user.body.detail).toBe('app_user_id has 257 characters: send at most 256.');
    // 256 emoji are within the bound (512 UTF-16 units): an unknown person, not a malformed request.
    expect((await call('GET', `/v1/apps/${APP}/installations/${fox(256)}`)).status).toBe(404);
    const title = await call('POST', '/v1/rooms/plain/cards', { ...card, card: { title: '🦊'.repeat(257), body: '' } });
    expect(title.body.detail).toBe('card.title has 257 characters: send at most 256.');
    expect(
      (await call('POST', '/v1/rooms/plain/cards', { ...card, card: { title: '🦊'.repeat(256), body: '' } })).status,
    ).toBe(201);
  });

  it('posts a card only for a person in the room, and deep links only to routes the manifest declares', async () => {
    state.users.push({ id: 'u2', app_user_id: 'au2', display_name: 'Zed', tenant_id: 't1' });
    ctx.routes = () => [{ path: '/' }, { path: '/poll/:id' }];
    try {
      const card = (app_user_id: string, deep_link = '/poll/7') => ({
        mini_app_id: APP,
        app_user_id,
        card: { title: 'T', body: '', actions: [{ label: 'Open', deep_link }] },
      });
      const outsider = await call('POST', '/v1/rooms/plain/cards', card('au2'));
      expect([outsider.status, outsider.body.detail]).toEqual([
        404,
        'room "plain" is not one "au2" is in: post into a room the person is in, as svc.room.current() names it.',
      ]);
      expect((await call('POST', '/v1/rooms/plain/cards', card('au1'))).status).toBe(201);
      const undeclared = (link: string) =>
        `"${link}" is not a route manifest.json declares, so no person could open it: send a path that matches one of "/", "/poll/:id" (each segment is compared percent-decoded).`;
      const url = (link: string) =>
        `"${link}" is a URL, not a path inside the app: send the path of a route manifest.json declares, such as "/".`;
      for (const [link, why] of [
        ['https://evil.example', url],
        ['//evil.example/poll', url],
        ['/polls/42', undeclared],
        ['poll/7', () => '"poll/7" does not start with "/": a deep link is a path inside the app; send "/poll/7".'],
        [
          '?tab=votes',
          () => '"?tab=votes" does not start with "/": a deep link is a path inside the app; send "/?tab=votes".',
        ],
      ] as const) {
        const refused = await call('POST', '/v1/rooms/plain/cards', card('au1', link));
        expect([link, refused.status, refused.body.detail]).toEqual([
          link,
          400,
          `card.actions[0].deep_link ${why(link)}`,
        ]);
      }
      state.grants[0]!.scopes = ['svc.notifications'];
      const note = { mini_app_id: APP, title: 'T', body: 'B', deep_link: 'https://evil.example' };
      const notified = await call('POST', '/v1/users/au1/notifications', note);
      expect([notified.status, notified.body.detail]).toEqual([
        400,
        'deep_link "https://evil.example" is a URL, not a path inside the app: send the path of a route manifest.json declares, such as "/".',
      ]);
      expect(
        (await call('POST', '/v1/users/au1/notifications', { ...note, deep_link: '/poll/7?tab=results' })).status,
      ).toBe(201);
    } finally {
      state.users.pop();
      state.grants[0]!.scopes = [];
      delete ctx.routes;
    }
  });

  it('takes a POST only as application/json, as the platform requires of every signed request with a body', async () => {
    const body = JSON.stringify({ mini_app_id: APP, app_user_id: 'au1', card: { title: 'T', body: '' } });
    const post = async (type: string) => {
      const { 'Content-Type': _, ...signed } = await signRequest({ body, secret: secrets[0]!, miniAppId: APP });
      const headers = { ...signed, 'content-type': type };
      const response = await fetch(`${base}/v1/rooms/plain/cards`, { method: 'POST', headers, body });
      return { status: response.status, detail: ((await response.json()) as { detail?: string }).detail };
    };
    expect(await post('text/plain')).toEqual({
      status: 400,
      detail: 'The Content-Type header is "text/plain": send the JSON body with Content-Type: application/json.',
    });
    expect((await post('application/x-www-form-urlencoded')).status).toBe(400);
    expect((await post('Application/JSON; charset=utf-8')).status).toBe(201);
  });

  it('names the field, its index and its bound in a 400', async () => {
    const card = { title: 'Lunch?', body: 'Vote', actions: [{ label: 'Vote', deep_link: '/p/1' }, { label: '' }] };
    const refused = await call('POST', '/v1/rooms/plain/cards', { mini_app_id: APP, app_user_id: 'au1', card });
    expect(refused.body.detail).toBe('card.actions[1].label is empty: send a button label as a non-empty string.');
    const untitled = await call('POST', '/v1/rooms/plain/cards', {
      mini_app_id: APP,
      app_user_id: 'au1',
      card: { body: 'Vote' },
    });
    expect(untitled.body.detail).toBe('card.title is missing: send the card title as a non-empty string.');
    const long = await call('POST', '/v1/users/au1/notifications', {
      mini_app_id: APP,
      title: 'x'.repeat(257),
      body: 'y',
      deep_link: '/',
    });
    expect(long.body.detail).toBe('title has 257 characters: send at most 256.');
    const notObject = await call('POST', '/v1/rooms/plain/cards', { mini_app_id: APP, app_user_id: 'au1', card: 'hi' });
    expect(notObject.body.detail).toBe('card must be an object: send {title, body, actions?}.');
    const notString = await call('POST', '/v1/agents/verify', { token: 42 });
    expect(notString.body.detail).toBe('token must be a string: send the app token that carries the act claim.');
  });

  it('answers 409 after the version is revoked', async () => {
    state.version_revoked = true;
    const revoked = await call('GET', `/v1/apps/${APP}/installations/au1`, undefined, 's3cret-new');
    state.version_revoked = false;
    expect(revoked.status).toBe(409);
    expect(revoked.body.type).toMatch(/version-revoked$/);
  });

  it('answers 429 with Retry-After past the burst of 60', async () => {
    let clock = 0;
    take = createRequestBucket(() => clock);
    for (let i = 0; i < 60; i++) expect(take()).toBe(0);
    const limited = await call('GET', `/v1/apps/${APP}/installations/au1`, undefined, 's3cret-new');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    clock += 100; // 600/min refills one request per 100 ms
    expect((await call('GET', `/v1/apps/${APP}/installations/au1`, undefined, 's3cret-new')).status).toBe(200);
  });
});
