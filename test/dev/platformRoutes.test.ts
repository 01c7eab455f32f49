// The platform's one HTTP app, in-process (app.request(): no socket): each guard, limit and error answer of the
// messenger origin, as problem details naming what to send instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import type { PlatformApp } from '../../src/dev/platform/createPlatformApp';
import { platformApps } from '../../src/dev/platform/platformApps';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { canInlineScript, jsonInScript } from '../../src/dev/messenger/messengerHtml';
import { PAGE_START_ID } from '../../src/dev/devContract';

let p: DevPlatform;
let app: PlatformApp;
let host: string;

beforeAll(async () => {
  p = await startDevPlatform({ miniAppId: 'polls', audience: 'https://polls.example' });
  app = platformApps.of(p);
  host = new URL(p.origin).host;
});
afterAll(() => p.close());

/** A request as the messenger page sends it, with `change` applied to its headers (undefined removes one). */
function send(method: string, path: string, body?: BodyInit, change: Record<string, string | undefined> = {}) {
  const headers: Record<string, string | undefined> = {
    host,
    origin: p.origin,
    'x-svc-dev-token': p.controlToken,
    'content-type': 'application/json',
    ...change,
  };
  const defined = Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined);
  return app.request(`${p.origin}${path}`, { method, body, headers: defined });
}

/** The answer's problem details, checked for their type, status and content type. */
async function problem(response: Response, status: number, name: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as { type: string; status: number; detail: string; instance: string };
  expect(body).toMatchObject({ type: `${p.origin}/errors/${name}`, status });
  return body;
}

describe('the control API guard', () => {
  it('answers a guarded route when Host, Origin and token are right', async () => {
    const response = await send('GET', '/__svc/state');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { mini_app_id: string }).mini_app_id).toBe('polls');
  });

  it('refuses another Host (DNS rebinding), naming the one to use', async () => {
    const body = await problem(await send('GET', '/__svc/state', undefined, { host: 'evil.test' }), 403, 'forbidden');
    expect(body.detail).toContain(`Host must be ${host}`);
  });

  it('refuses a missing or wrong token without showing it', async () => {
    for (const token of [undefined, 'x'.repeat(32), `${p.controlToken}x`]) {
      const response = await send('POST', '/__svc/install', '{}', { 'x-svc-dev-token': token });
      const body = await problem(response, 403, 'forbidden');
      expect(body.detail).toMatch(/x-svc-dev-token is missing or wrong/);
      expect(JSON.stringify(body)).not.toContain(p.controlToken);
    }
  });

  it('refuses a foreign Origin, and a request with neither Origin nor same-origin fetch metadata', async () => {
    const foreign = await problem(
      await send('POST', '/__svc/install', '{}', { origin: 'http://evil.test' }),
      403,
      'forbidden',
    );
    expect(foreign.detail).toContain(`Origin must be ${p.origin}`);
    await problem(await send('POST', '/__svc/install', '{}', { origin: undefined }), 403, 'forbidden');
    const page = await send('GET', '/__svc/state', undefined, { origin: undefined, 'sec-fetch-site': 'same-origin' });
    expect(page.status).toBe(200);
    // A browser sends Origin with every POST: one without it is no page's, whatever fetch metadata it claims.
    const claimed = await send('POST', '/__svc/install', '{}', { origin: undefined, 'sec-fetch-site': 'same-origin' });
    expect((await problem(claimed, 403, 'forbidden')).detail).toContain(`Origin must be ${p.origin}`);
  });

  it('takes the token from the query on the event stream only', async () => {
    const path = `/__svc/state?token=${p.controlToken}`;
    await problem(await send('GET', path, undefined, { 'x-svc-dev-token': undefined }), 403, 'forbidden');
    const refused = await send('GET', '/__svc/events?token=wrong', undefined, { 'x-svc-dev-token': undefined });
    await problem(refused, 403, 'forbidden');
  });
});

describe('the control API bodies', () => {
  it('answers 413 to a body over the control limit', async () => {
    const body = await problem(await send('POST', '/__svc/rooms', 'x'.repeat(65 * 1024)), 413, 'payload-too-large');
    expect(body.detail).toMatch(/more than the 65536 this endpoint accepts: send a smaller body/);
  });

  it('answers 400 naming the field to a body of the wrong shape, and to one that is not a JSON object', async () => {
    const rooms = await problem(await send('POST', '/__svc/rooms', '{"name":1}'), 400, 'invalid-request');
    expect(rooms.detail).toMatch(/^name must be a string/);
    const overlap = await problem(
      await send('POST', '/__svc/rotate-secret', '{"overlap_seconds":-1}'),
      400,
      'invalid-request',
    );
    expect(overlap.detail).toMatch(/^overlap_seconds is negative/);
    const list = await problem(await send('POST', '/__svc/install', '[1]'), 400, 'invalid-request');
    expect(list.detail).toMatch(/must be a JSON object/);
    const text = await problem(await send('POST', '/__svc/install', 'nope'), 400, 'invalid-request');
    expect(text.detail).toMatch(/not JSON/);
    // Each id says which id to send, not a person's for every route.
    for (const [path, body, detail] of [
      ['/__svc/deliveries/resend', '{"id":""}', "id is empty: send a delivery's id from GET /__svc/state."],
      ['/__svc/notifications/read', '{"id":7}', "id must be a string: send a notification's id from GET /__svc/state."],
      ['/__svc/message', '{"room_id":"","text":"hi"}', 'room_id is empty: send a room id such as general.'],
      ['/__svc/subject-token', '{"agent_id":""}', 'agent_id is empty: send an agent id such as agent-7.'],
      ['/__svc/install', '{"user_id":""}', 'user_id is empty: send a person id such as alice.'],
    ] as const)
      expect((await problem(await send('POST', path, body), 400, 'invalid-request')).detail, path).toBe(detail);
  });

  it('checks the page events like every other route', async () => {
    const launch = await send(
      'POST',
      '/__svc/page-event',
      JSON.stringify({ type: 'launch', user: 'alice', room: 'general' }),
    );
    expect(launch.status).toBe(204);
    const other = await problem(await send('POST', '/__svc/page-event', '{"type":"other"}'), 400, 'invalid-request');
    expect(other.detail).toMatch(/type must be 'launch' or 'no-hello'/);
    await problem(await send('POST', '/__svc/page-event', '{}', { origin: 'http://evil.test' }), 403, 'forbidden');
  });

  it('answers an action refusal as 400 naming the value', async () => {
    const body = await problem(
      await send('POST', '/__svc/message', JSON.stringify({ room_id: 'nowhere', text: 'hi' })),
      400,
      'invalid-request',
    );
    expect(body.detail).toMatch(/^room_id nowhere is unknown/);
  });
});

describe('routes that do not exist', () => {
  it('answers an unknown route with a problem, path and all', async () => {
    const body = await problem(await send('GET', '/nothing/here'), 404, 'not-found');
    expect(body).toMatchObject({ instance: '/nothing/here' });
    expect(body.detail).toMatch(/There is no route \/nothing\/here/);
  });

  it('answers where an MCP client looks for OAuth with what svc dev takes instead (mcp47 F2)', async () => {
    for (const [method, path] of [
      ['POST', '/register'],
      ['GET', '/.well-known/oauth-protected-resource/mcp'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/authorize'],
    ] as const) {
      const body = await problem(await send(method, path), 404, 'not-found');
      expect(body.detail).toBe(
        `There is no route ${path}: svc dev's MCP endpoint signs no one in with OAuth; give your client the Authorization header svc dev printed at its start, whose MCP token changes at each start without --state.`,
      );
    }
    // The realm's own discovery is served, and another unknown route keeps its sentence.
    expect((await send('GET', '/.well-known/oauth-protected-resourceX')).status).toBe(404);
  });

  it('answers a route asked with another method 405, naming its methods in Allow, over loopback', async () => {
    const page = await fetch(`${p.origin}/`, { method: 'DELETE' });
    expect([page.status, page.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect(((await page.json()) as { detail: string }).detail).toBe('/ is not sent with DELETE: send GET or HEAD.');
    const store = await fetch(`${p.origin}/__svc/store/packages`, { headers: { origin: p.origin } });
    expect([store.status, store.headers.get('allow')]).toEqual([405, 'POST']);
    // A problem type that does not exist is an unknown route whatever the method, not 405.
    await problem(await send('GET', '/errors/no-such-problem'), 404, 'not-found');
    await problem(await send('POST', '/errors/no-such-problem', '{}'), 404, 'not-found');
    await problem(await send('PUT', '/errors/not-found', '{}'), 405, 'method-not-allowed');
  });

  it('answers GET //x as an unknown route (not as the page)', async () => {
    const body = await problem(await send('GET', '//x'), 404, 'not-found');
    expect(body.instance).toBe('//x');
  });

  it('names the control routes that exist, after the guard', async () => {
    const body = await problem(await send('GET', '/__svc/install'), 404, 'not-found');
    expect(body.detail).toMatch(/There is no control route GET \/__svc\/install: use one of .*POST \/__svc\/install/);
    await problem(await send('GET', '/__svc/nope', undefined, { origin: 'http://evil.test' }), 403, 'forbidden');
  });

  it('answers the MCP path with a problem when no agent bridge runs', async () => {
    await problem(await send('POST', '/mcp', '{}'), 404, 'not-found');
  });
});

describe('the page and the identity provider', () => {
  it('serves a stale tab (no or an old launch token) a page that says what to do', async () => {
    const stale = await send('GET', '/?token=old');
    expect(stale.status).toBe(403);
    expect(stale.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const staleHtml = await stale.text();
    expect(staleHtml).toContain('<!doctype html>');
    // The stale tab gets nothing of this run: neither its configuration nor its state.
    expect(staleHtml).not.toContain(PAGE_START_ID);
    const page = await send('GET', `/?token=${p.controlToken}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    await problem(await send('GET', `/?token=${p.controlToken}`, undefined, { host: 'evil.test' }), 403, 'forbidden');
  });

  it('inlines the start of the page (its configuration and the state) as they are answered, in a data block', async () => {
    const html = await (await send('GET', `/?token=${p.controlToken}`)).text();
    const block = html.match(new RegExp(`<script type="application/json" id="${PAGE_START_ID}">(.*?)</script>`));
    expect(block).not.toBeNull();
    const start = JSON.parse(block![1]!);
    expect(start.config).toEqual(await (await send('GET', '/__svc/config')).json());
    expect(start.state).toEqual(await (await send('GET', '/__svc/state')).json());
  });

  const built = 'packages/svc-sdk-dev/dist/dev-ui.js';
  it.runIf(existsSync(built))('inlines the built page script, which its CSP allows by its hash alone', async () => {
    const page = await send('GET', `/?token=${p.controlToken}`);
    const script = readFileSync(built, 'utf8');
    const hash = createHash('sha256').update(script).digest('base64');
    expect(page.headers.get('content-security-policy')).toContain(`script-src 'self' 'sha256-${hash}'`);
    const html = await page.text();
    expect(html).toContain(`<script type="module">${script}</script>`);
    expect(html).not.toContain('src="/__svc/ui.js"');
  });

  it('inlines no script that could end its element early, and none of HTML comments', () => {
    expect(canInlineScript('let a = "x"; export {};')).toBe(true);
    expect(canInlineScript('const s = "</SCRIPT><script>alert(1)";')).toBe(false);
    expect(canInlineScript('const s = "<!-- <script>";')).toBe(false);
  });

  it('writes JSON inside a script element so that no string can end it or open a comment', () => {
    const value = { name: '</script><script>alert(1)</script>', note: '<!-- & -->', line: '\u2028' };
    const text = jsonInScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('answers the OAuth and OpenID routes in their own terms', async () => {
    const discovery = `/realms/${p.realm}/.well-known/openid-configuration`;
    const wrong = await problem(await send('POST', discovery, '{}'), 405, 'method-not-allowed');
    expect(wrong.detail).toMatch(/read with GET/);
    const token = await send('GET', `/realms/${p.realm}/protocol/openid-connect/token`);
    expect(token.status).toBe(405);
    expect(token.headers.get('allow')).toBe('POST');
    expect(await token.json()).toMatchObject({ error: 'invalid_request' });
    const certs = `/realms/${p.realm}/protocol/openid-connect/certs`;
    expect(((await (await send('GET', certs)).json()) as { keys: unknown[] }).keys).toHaveLength(1);
    const patched = await send('PATCH', certs, '{}');
    expect(patched.headers.get('allow')).toBe('GET, HEAD');
    await problem(patched, 405, 'method-not-allowed');
  });

  it('resolves each problem type to a line saying what it is', async () => {
    const response = await send('GET', '/errors/rate-limited');
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^rate-limited \(429\): Rate limited\./);
    await problem(await send('GET', '/errors/nope'), 404, 'not-found');
  });
});
