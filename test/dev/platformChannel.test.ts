// The page's channel, a WebSocket, through a client nobody here wrote (`ws`): the guards before the upgrade, the
// events it carries, the page's requests and their replies, and its end when svc dev stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { writeAppDir } from './appDir';

let platform: DevPlatform;
let token: string;
let wsUrl: string;
beforeAll(async () => {
  platform = await startDevPlatform({ dir: await writeAppDir() });
  token = new URL(platform.url).searchParams.get('token')!;
  wsUrl = `${platform.origin.replace('http:', 'ws:')}/__svc/channel`;
});
afterAll(() => platform?.close());

/** Opens the channel as a page of `origin` would; resolves once open, or with the refused upgrade's status. */
function open(origin: string | undefined, query = `?token=${token}`, headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${wsUrl}${query}`, { ...(origin ? { origin } : {}), headers });
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const wake of waiters.splice(0)) wake();
  });
  /** The next message matching `test`, in order. */
  const next = async (test: (m: Record<string, unknown>) => boolean) => {
    for (;;) {
      const at = messages.findIndex(test);
      if (at >= 0) return messages.splice(0, at + 1).pop()!;
      await new Promise<void>((wake) => waiters.push(wake));
    }
  };
  const opened = new Promise<number>((resolve, reject) => {
    socket.once('open', () => resolve(101));
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', reject);
  });
  return { socket, opened, next };
}

describe("the page's channel", () => {
  it('sends the whole state on connecting, then each change as its patches', async () => {
    const page = open(platform.origin);
    expect(await page.opened).toBe(101);
    const first = await page.next(() => true);
    expect(first.event).toBe('state');
    expect((first.data as { state: { revision?: number } }).state).toEqual(JSON.parse(JSON.stringify(platform.state)));
    await platform.grant('svc.files.read');
    const patch = await page.next((m) => m.event === 'patch');
    expect((patch.data as { revision: number }).revision).toBe(platform.state.revision);
    page.socket.close();
  });

  it('sends no state to a page that names the revision it has; a change since, it sends', async () => {
    const had = platform.state.revision ?? 0;
    const page = open(platform.origin, `?token=${token}&revision=${had}`);
    expect(await page.opened).toBe(101);
    await platform.grant('svc.room.context');
    // The first message is the change's patch: the state the page had was not sent again.
    const firstMessage = await page.next(() => true);
    expect(firstMessage.event).toBe('patch');
    expect((firstMessage.data as { revision: number }).revision).toBe(had + 1);
    page.socket.close();
    const stale = open(platform.origin, `?token=${token}&revision=${had}`);
    await stale.opened;
    const state = await stale.next(() => true);
    expect(state.event).toBe('state');
    expect((state.data as { state: { revision: number } }).state.revision).toBe(had + 1);
    stale.socket.close();
  });

  it('refuses the upgrade before any event to another origin, a wrong token and another host name', async () => {
    expect(await open('http://evil.example').opened).toBe(403);
    expect(await open('http://localhost:1').opened).toBe(403);
    expect(await open(platform.origin, '?token=wrong').opened).toBe(403);
    expect(await open(platform.origin, '').opened).toBe(403);
    const port = new URL(platform.origin).port;
    expect(await open(platform.origin, `?token=${token}`, { host: `rebound.example:${port}` }).opened).toBe(403);
    // A browser's handshake always carries Origin: one without it is no page's, whatever fetch metadata it claims
    // (sec44 F4: Sec-Fetch-Site: same-origin let it through).
    expect(await open(undefined).opened).toBe(403);
    expect(await open(undefined, `?token=${token}`, { 'sec-fetch-site': 'same-origin' }).opened).toBe(403);
  });

  it('answers a plain GET with a problem that says it is a WebSocket', async () => {
    const res = await fetch(`${platform.origin}/__svc/channel?token=${token}`, {
      headers: { origin: platform.origin },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toContain('is a WebSocket');
  });

  it("replies to each numbered request: an answer route's refusal names why, another route names the answers", async () => {
    const page = open(platform.origin);
    await page.opened;
    page.socket.send(JSON.stringify({ n: 7, route: 'POST /__svc/mcp/result', body: { id: 'gone', result: {} } }));
    const stale = await page.next((m) => m.re === 7);
    expect(stale.error).toMatch(/^id is not the running MCP call/);
    page.socket.send(JSON.stringify({ n: 8, route: 'POST /__svc/reset', body: {} }));
    const other = await page.next((m) => m.re === 8);
    expect(other.error).toContain(
      'route must be one of POST /__svc/mcp/progress, POST /__svc/mcp/result, POST /__svc/mcp/elicit',
    );
    // A body is checked as the control route checks it: a field it does not take is named before the id is looked up.
    page.socket.send(JSON.stringify({ n: 9, route: 'POST /__svc/mcp/progress', body: { id: 'gone', zzz: 1 } }));
    expect((await page.next((m) => m.re === 9)).error).toBe(
      'unknown field "zzz": the fields are id, message, waiting, confirming.',
    );
    page.socket.send(JSON.stringify({ n: 10, route: 'POST /__svc/mcp/result', body: { result: {} } }));
    expect((await page.next((m) => m.re === 10)).error).toBe(
      "id must be a string: send the running call's id from its mcp-invoke event.",
    );
    page.socket.close();
    // The same over HTTP, as a problem detail.
    const http = await fetch(`${platform.origin}/__svc/mcp/elicit`, {
      method: 'POST',
      headers: {
        origin: platform.origin,
        'x-svc-dev-token': platform.controlToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ id: 'gone', prompt: 'Which?', schema: {}, extra: true }),
    });
    expect(http.status).toBe(400);
    expect((await http.json()).detail).toBe('unknown field "extra": the fields are id, prompt, schema.');
  });

  it('closes, saying why, on a message that is not a numbered JSON request', async () => {
    for (const message of ['not json', '{"route":"POST /__svc/mcp/result"}']) {
      const page = open(platform.origin);
      await page.opened;
      const closed = new Promise<[number, string]>((resolve) =>
        page.socket.once('close', (code, reason) => resolve([code, String(reason)])),
      );
      page.socket.send(message);
      const [code, reason] = await closed;
      expect([1007, 1008]).toContain(code);
      expect(reason).toMatch(/JSON request|its number n/);
    }
  });

  it('closes every page when svc dev stops', async () => {
    const other = await startDevPlatform({ dir: await writeAppDir() });
    const otherToken = new URL(other.url).searchParams.get('token');
    const page = new WebSocket(`${other.origin.replace('http:', 'ws:')}/__svc/channel?token=${otherToken}`, {
      origin: other.origin,
    });
    await new Promise((resolve) => page.once('open', resolve));
    const closed = new Promise<number>((resolve) => page.once('close', resolve));
    await other.close();
    expect(await closed).toBe(1001);
  });
});
