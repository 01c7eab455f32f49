// Messenger tabs closing while MCP calls run and wait in the queue: in every order, over HTTP and over the stdio
// bridge (`svc mcp`), a call whose tab closed fails at once, the queue moves on, and later calls go to the tab still
// open, or wait a moment for a page (a reload comes back) and then fail with ERR_HOST_UNREACHABLE. The official MCP
// client, the messenger page in Chromium.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { connectMcp, connectMcpStdio, openAppFrame, openLivePage, resultText, writeMcpTestApp } from './mcpTestApp';
import { rpc } from './mcpRpc';

const _root = resolve(import.meta.dirname, '../..');

// `hold` runs until its call is cancelled or its tab closes; `echo` answers at once.
const APP = `
svc.actions.handle('hold', (_input, context) => new Promise((resolve) => {
  svc.actions.progress('holding');
  context.signal.addEventListener('abort', () => {
    document.body.dataset.released = 'true';
    resolve({ released: true });
  });
}));
svc.actions.handle('echo', () => ({ echoed: true }));
svc.actions.handle('remove', () => {
  document.body.dataset.removed = 'true';
  return { removed: true };
});
`;

type Transport = 'http' | 'stdio';

let platform: DevPlatform;
let dir: string;
let state: string;
const clients: Client[] = [];

test.beforeEach(async () => {
  // The platform writes its discovery file here, where `svc mcp` (the stdio bridge) looks for it.
  state = await mkdtemp(join(tmpdir(), 'svc-state-'));
  process.env.SVC_STATE_DIR = state;
  dir = await writeMcpTestApp(
    [
      { name: 'hold', title: 'Hold', description: 'Runs until the call is cancelled or its tab closes.' },
      { name: 'echo', title: 'Echo', description: 'Answers at once with { echoed: true }.' },
      {
        name: 'remove',
        title: 'Remove everything',
        description: 'A destructive action the person always confirms.',
        confirm: 'always',
        destructive: true,
      },
    ],
    APP,
    // `hold` changes something (neither read-only nor idempotent): an agent cut off during it must look first.
    (manifest) => {
      manifest.actions[0].annotations = { read_only: false, destructive: false, idempotent: false, open_world: false };
    },
  );
  // A page that closed is waited for 1.5 s here (10 s by default): long enough for a reload.
  platform = await startDevPlatform({ dir, port: 0, mcpPageWait: 1500 });
  delete process.env.SVC_STATE_DIR;
});
test.afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await platform?.close();
});

/** An MCP client over `transport`: the endpoint itself, or `svc mcp <dir>` found through the discovery file. */
async function connect(transport: Transport): Promise<Client> {
  let client: Client;
  if (transport === 'http') client = await connectMcp(platform);
  else client = await connectMcpStdio(dir, state);
  clients.push(client);
  return client;
}

/** A messenger tab whose channel is open (the platform relays calls to the newest such tab). */
function openTab(browser: Browser): Promise<Page> {
  return openLivePage(browser, platform);
}

/** Starts `hold` and resolves once the app runs it, with the call's outcome still to come (wrapped: not awaited). */
async function startHold(client: Client) {
  let started!: () => void;
  const running = new Promise<void>((done) => (started = done));
  const call = client.callTool(
    { name: 'hold', arguments: {} },
    { onprogress: (p) => p.message === 'holding' && started(), timeout: 60_000 },
  );
  await Promise.race([running, call.then((r) => Promise.reject(new Error(resultText(r))))]);
  return { call };
}

/** Queues `echo` behind the running call and resolves once the platform reports it queued (wrapped as above). */
async function queueEcho(client: Client) {
  let queued!: () => void;
  const waiting = new Promise<void>((done) => (queued = done));
  const call = client.callTool(
    { name: 'echo', arguments: {} },
    { onprogress: (p) => p.message?.startsWith('queued') && queued(), timeout: 60_000 },
  );
  await Promise.race([waiting, call.then((r) => Promise.reject(new Error(resultText(r))))]);
  return { call };
}

/** A queued `echo` that ran: no error, and its output. */
function expectEchoed(result: Awaited<ReturnType<Client['callTool']>>) {
  expect(result.isError, resultText(result)).toBeFalsy();
  expect(result.structuredContent).toEqual({ echoed: true });
}

const code = (result: { _meta?: Record<string, unknown> }) =>
  (result._meta?.['dev.svc/error'] as { code?: string } | undefined)?.code;

test('a request that reuses the id of a call still running in its session is refused, naming the id', async ({
  browser,
}) => {
  const tab = await openTab(browser);
  await tab.getByTestId('tab-Agent').click();
  const init = await rpc(platform, {
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  const session = init.session!;
  await rpc(platform, '{"jsonrpc":"2.0","method":"notifications/initialized"}', session);
  // The first call holds; its answer comes on its own stream, read until it ends.
  const held = rpc(platform, { id: 20, method: 'tools/call', params: { name: 'hold', arguments: {} } }, session);
  // Running in the app once its row is in the page's list of MCP calls.
  await expect(tab.getByTestId('mcp-call')).toHaveCount(1);
  const again = await rpc(platform, { id: 20, method: 'tools/call', params: { name: 'echo', arguments: {} } }, session);
  expect(again.status).toBe(400);
  expect(JSON.parse(again.body)).toMatchObject({
    id: 20,
    error: {
      code: -32600,
      message: expect.stringContaining('id 20 is the id of a call of this session that is still running'),
    },
  });
  // The running call is not answered with another's answer: cancelled, it ends; a new id runs.
  await rpc(
    platform,
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":20,"reason":"test"}}',
    session,
  );
  await held;
  const fresh = await rpc(platform, { id: 21, method: 'tools/call', params: { name: 'echo', arguments: {} } }, session);
  expect(fresh.body).toContain('"echoed":true');
});

for (const transport of ['http', 'stdio'] as const) {
  test(`${transport}: the only tab closes: the running call fails at once, the queued one and the next after the wait`, async ({
    browser,
  }) => {
    const tab = await openTab(browser);
    const client = await connect(transport);
    const { call: held } = await startHold(client);
    const { call: queued } = await queueEcho(client);
    await tab.close();
    const [first, second] = await Promise.all([held, queued]);
    expect(code(first)).toBe('ERR_DISCONNECTED');
    // `hold` is neither read-only nor idempotent: it may have done part of its work, and the agent is told to look.
    expect(resultText(first)).toMatch(
      /the messenger page closed or reloaded during the call\. If it reloaded, the next call runs in it once it is back; if it closed, open the messenger page svc dev printed .*\. The action may have done part of its work: check what it did before you call it again\.$/,
    );
    expect(first._meta?.['dev.svc/error']).toMatchObject({ retriable: false });
    expect(code(second)).toBe('ERR_HOST_UNREACHABLE');
    const later = await client.callTool({ name: 'echo', arguments: {} });
    expect(code(later)).toBe('ERR_HOST_UNREACHABLE');
    expect(resultText(later)).toMatch(/^ERR_HOST_UNREACHABLE: no messenger page is open/);
  });

  test(`${transport}: svc dev stops mid-call: the running call and the queued one are answered before the streams end`, async ({
    browser,
  }) => {
    const tab = await openTab(browser);
    const client = await connect(transport);
    const { call: held } = await startHold(client);
    const { call: queued } = await queueEcho(client);
    const stopping = Date.now();
    await platform.close();
    // Answered within moments, not left to the client's own timeout (a minute) as when the streams closed unanswered.
    const [first, second] = await Promise.all([held, queued]);
    expect(Date.now() - stopping).toBeLessThan(5000);
    for (const result of [first, second]) {
      expect(code(result)).toBe('ERR_DISCONNECTED');
      expect(resultText(result)).toMatch(/svc dev stopped/);
    }
    // `hold` ran, and is neither read-only nor idempotent: told to look before calling again, as when its page closes;
    // the queued call never started, and may be called again.
    expect(resultText(first)).toBe(
      'ERR_DISCONNECTED: svc dev stopped during the call; once it runs again, check what the action did before you call it again: it may have done part of its work.',
    );
    expect(first._meta?.['dev.svc/error']).toMatchObject({ retriable: false });
    expect(second._meta?.['dev.svc/error']).toMatchObject({ retriable: true });
    // The page ends the call too: the app is told to stop (its handler resolves on the abort), and the row says what
    // the agent got, not the app's answer after it.
    await tab.getByTestId('tab-Agent').click();
    const row = tab.getByTestId('mcp-call').first();
    await expect(row).toContainText('ERR_DISCONNECTED: the connection to svc dev closed during the call');
    await expect(tab.frameLocator('[data-testid=app-frame]').locator('body[data-released]')).toBeAttached();
    await expect(row).not.toContainText('released');
  });

  test(`${transport}: the tab closes, or svc dev stops, while the person is asked to confirm: the action did not run, call again`, async ({
    browser,
  }) => {
    for (const end of ['tab', 'stop'] as const) {
      const tab = await openTab(browser);
      const client = await connect(transport);
      const call = client.callTool({ name: 'remove', arguments: {} }, { timeout: 60_000 });
      await expect(tab.getByTestId('action-sheet-yes')).toBeVisible();
      if (end === 'tab') await tab.close();
      else await platform.close();
      const result = await call;
      expect(code(result)).toBe('ERR_DISCONNECTED');
      expect(resultText(result)).toMatch(
        end === 'tab'
          ? /^ERR_DISCONNECTED: the messenger page closed or reloaded before the person confirmed the call\. The action did not run\. .* Then call the tool again\.$/
          : /^ERR_DISCONNECTED: svc dev stopped before the person confirmed the call, so the action did not run; once it runs again, call the tool again\.$/,
      );
      expect(result._meta?.['dev.svc/error']).toMatchObject({ retriable: true });
      if (end === 'stop') {
        await expect(tab.getByTestId('action-sheet-yes')).toBeHidden();
        expect(await tab.frameLocator('[data-testid=app-frame]').locator('body[data-removed]').count()).toBe(0);
      }
    }
  });

  test(`${transport}: the newer of two tabs closes mid-call: the queued call and the next run in the older tab`, async ({
    browser,
  }) => {
    const older = await openTab(browser);
    const newer = await openTab(browser);
    const client = await connect(transport);
    const { call: held } = await startHold(client);
    const { call: queued } = await queueEcho(client);
    await newer.close();
    expect(code(await held)).toBe('ERR_DISCONNECTED');
    expectEchoed(await queued);
    expect((await client.callTool({ name: 'echo', arguments: {} })).structuredContent).toEqual({ echoed: true });
    await older.getByTestId('tab-Agent').click();
    await expect(older.getByTestId('mcp-call')).toHaveCount(2);
    await older.close();
    // A call that reaches the tab while its socket closes fails with ERR_DISCONNECTED, at once too.
    await expect
      .poll(async () => code(await client.callTool({ name: 'echo', arguments: {} })))
      .toBe('ERR_HOST_UNREACHABLE');
  });

  test(`${transport}: the older tab closes while the newer runs the call: nothing fails until the newer closes`, async ({
    browser,
  }) => {
    const older = await openTab(browser);
    const newer = await openTab(browser);
    const client = await connect(transport);
    const { call: held } = await startHold(client);
    const { call: queued } = await queueEcho(client);
    await older.close();
    // The call still runs in the newer tab: its progress reaches the client, and it ends only with that tab.
    await newer.getByTestId('tab-Agent').click();
    await expect(newer.getByTestId('mcp-call').first()).toContainText('hold · MCP');
    await newer.close();
    expect(code(await held)).toBe('ERR_DISCONNECTED');
    expect(code(await queued)).toBe('ERR_HOST_UNREACHABLE');
    expect(code(await client.callTool({ name: 'echo', arguments: {} }))).toBe('ERR_HOST_UNREACHABLE');
  });
}

test('a queued call is told its place once, not again as other calls queue behind it (mcp47 F4)', async ({
  browser,
}) => {
  await openTab(browser);
  const client = await connect('http');
  await startHold(client);
  const told: string[] = [];
  client
    .callTool({ name: 'echo', arguments: {} }, { onprogress: (p) => void told.push(p.message ?? ''), timeout: 60_000 })
    .catch(() => {});
  await expect.poll(() => told).toEqual(['queued in svc dev: 1 call ahead (the app runs one at a time)']);
  // Two more behind it: each told its own place; the first's stays as it was told.
  await queueEcho(client);
  await queueEcho(client);
  expect(told).toEqual(['queued in svc dev: 1 call ahead (the app runs one at a time)']);
});

test('a call cancelled by notifications/cancelled ends its event stream (it gets no answer, as MCP says)', async ({
  browser,
}) => {
  await openTab(browser);
  const headers = {
    authorization: `Bearer ${platform.mcpToken}`,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  const post = (body: object, session?: string) =>
    fetch(platform.mcpUrl!, {
      method: 'POST',
      headers: { ...headers, ...(session && { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }) },
      body: JSON.stringify(body),
    });
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const session = init.headers.get('mcp-session-id')!;
  await init.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  const call = await post(
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'hold', arguments: {}, _meta: { progressToken: 'p2' } },
    },
    session,
  );
  const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = '';
  while (!seen.includes('holding')) seen += (await reader.read()).value ?? '';
  const cancelled = await post(
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'stop' } },
    session,
  );
  expect(cancelled.status).toBe(202);
  // The stream ends (no answer comes for a cancelled request), instead of sending keep-alives for good.
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value;
  }
  expect(seen).not.toContain('"id":2');
});

test('the person reloads the tab: the running call fails, the queued one waits and runs in the reloaded page', async ({
  browser,
}) => {
  const tab = await openTab(browser);
  const client = await connect('http');
  const { call: held } = await startHold(client);
  const { call: queued } = await queueEcho(client);
  await tab.reload();
  expect(code(await held)).toBe('ERR_DISCONNECTED');
  expectEchoed(await queued);
});

test('svc dev reloads the page for an edited manifest: the agent is told so, and the queued call runs after it', async ({
  browser,
}) => {
  await openTab(browser);
  const client = await connect('http');
  const { call: held } = await startHold(client);
  const { call: queued } = await queueEcho(client);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, name: `${manifest.name} (edited)` }));
  const ended = await held;
  expect(code(ended)).toBe('ERR_DISCONNECTED');
  expect(resultText(ended)).toMatch(
    /^ERR_DISCONNECTED: svc dev reloaded the messenger page for the edited manifest\.json during the call, and the app stopped\. The next call runs in the reloaded page\./,
  );
  expectEchoed(await queued);
});

test('the person closes the app during a call: the agent is told the app was closed, and the next call opens it', async ({
  browser,
}) => {
  const tab = await openTab(browser);
  const client = await connect('http');
  const { call: held } = await startHold(client);
  await tab.getByTestId('app-close').click();
  const ended = await held;
  expect(code(ended)).toBe('ERR_DISCONNECTED');
  // `hold` is neither read-only nor idempotent: it may have done part of its work, so the agent is told to look first.
  expect(resultText(ended)).toBe(
    'ERR_DISCONNECTED: the person closed or reloaded the app before it answered. The action may have done part of its work: check what it did before you call it again.',
  );
  expect(ended._meta?.['dev.svc/error']).toMatchObject({ retriable: false });
  expect((await client.callTool({ name: 'echo', arguments: {} })).structuredContent).toEqual({ echoed: true });
});

test('stdio: svc dev gone mid-call without a word (its process ended): the bridge answers within moments', async ({
  browser,
}) => {
  await openTab(browser);
  const client = await connect('stdio');
  const { call: held } = await startHold(client);
  // What a killed platform leaves the bridge: no discovery of it (a stale file is ignored) and a stream that says
  // nothing more. Its discovery file is removed here, as its process's end makes the file stale.
  const files = await readdir(join(state, 'dev'));
  await Promise.all(files.map((name) => rm(join(state, 'dev', name), { force: true })));
  const gone = Date.now();
  const result = await held;
  expect(Date.now() - gone).toBeLessThan(5000);
  // The tool's failure with its code, as svc dev answers a call its stop ended (not a JSON-RPC error).
  expect(code(result)).toBe('ERR_DISCONNECTED');
  expect(resultText(result)).toMatch(
    /^ERR_DISCONNECTED: svc dev stopped during the request \(its process ended before it answered\)/,
  );
  // `hold` ran, and is neither read-only nor idempotent: told to look before calling again, not to call again.
  expect(resultText(result)).toMatch(
    / start it again \(.+\)\. The action may have done part of its work: check what it did before you call it again\.$/,
  );
  expect(result._meta?.['dev.svc/error']).toMatchObject({ retriable: false });
});

test('the app reloads itself mid-call: the running call fails, the queued one runs in the reloaded app', async ({
  browser,
}) => {
  const tab = await openTab(browser);
  const client = await connect('http');
  const { call: held } = await startHold(client);
  const { call: queued } = await queueEcho(client);
  const app = tab.frames().find((frame) => frame !== tab.mainFrame());
  await app!.evaluate(() => location.reload());
  const first = await held;
  expect(code(first)).toBe('ERR_DISCONNECTED');
  expect(resultText(first)).toMatch(/may have done part of its work/);
  // Never sent to the app that left: it waited for the reloaded one, and ran there.
  expectEchoed(await queued);
});

test("the app's calls while svc dev is down are refused as the platform unreachable, retriable", async ({
  browser,
}) => {
  const { tab, app } = await openAppFrame(browser, platform);
  await platform.close();
  await expect(tab.getByTestId('connection')).toContainText('Disconnected from svc dev');
  const refused = await app.evaluate(() =>
    (globalThis as unknown as { svc: { auth: { getToken(): Promise<unknown> } } }).svc.auth.getToken().then(
      () => 'a token',
      (e: { code: string; message: string; retriable: boolean }) => [e.code, e.message, e.retriable],
    ),
  );
  expect(refused).toEqual([
    'ERR_HOST_UNREACHABLE',
    expect.stringContaining('svc dev is not reachable (it stopped, or restarts): try again once it runs.'),
    true,
  ]);
});
