// The stdio bridge as an outside client meets it: the built `svc mcp <dir>` driven over stdio by the official MCP
// client (both protocol eras) and by raw JSON lines, against a real platform with the app open in Chromium. An
// error svc dev answers reaches the client as svc dev sent it; the app sees the client's own name as its agent id in
// both eras; a bridge started before svc dev serves the manifest's tools and says to start svc dev, then relays once
// it runs; `initialize` says what HTTP says, and a line that is not JSON is answered with the parse error.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { connectMcp, openLivePage, resultText, writeMcpTestApp } from './mcpTestApp';

const root = resolve(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
const ERAS = [
  ['2025-era', undefined],
  ['2026-07-28', { mode: 'auto' as const }],
] as const;
type Negotiation = (typeof ERAS)[number][1];

// `whoami` answers who the app was told called it: the context's agent id, and the actor (`act.sub`) of the
// delegated token the app gets during the call (read from its claims, so the token itself never leaves the page).
const APP = `
svc.actions.handle('whoami', async (_input, context) => {
  const { access_token: token } = await svc.auth.getToken();
  const payload = atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'));
  const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(payload, (c) => c.charCodeAt(0))));
  document.getElementById('out').textContent = 'called by ' + context.agent_id;
  return { agent_id: context.agent_id, act_sub: claims.act && claims.act.sub };
});
`;
const WHOAMI = {
  name: 'whoami',
  title: 'Who am I',
  description: 'Says who called it: the agent id the app was given.',
};

let dir: string;
let state: string;
let platform: DevPlatform | undefined;
let page: Page | undefined;
const bridges: Client[] = [];

test.beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'svc-state-'));
  dir = await writeMcpTestApp([WHOAMI], APP);
});
test.afterEach(async () => {
  for (const client of bridges.splice(0)) await client.close().catch(() => {});
  await page?.close();
  await platform?.close();
  page = platform = undefined;
});

/** Starts svc dev for the app (its discovery file in this test's state folder) and opens its messenger page. */
async function startPlatform(browser: Browser): Promise<DevPlatform> {
  process.env.SVC_STATE_DIR = state;
  try {
    platform = await startDevPlatform({ dir, port: 0 });
  } finally {
    delete process.env.SVC_STATE_DIR;
  }
  page = await openLivePage(browser, platform);
  return platform;
}

/** The official client over the built `svc mcp <dir>`, with what the bridge writes on stderr and the changes heard. */
async function connectStdio(name: string, negotiation: Negotiation) {
  const changes: string[][] = [];
  const client = new Client(
    { name, version: '0' },
    {
      versionNegotiation: negotiation,
      listChanged: { tools: { onChanged: (_error, tools) => void changes.push((tools ?? []).map((t) => t.name)) } },
    },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', dir],
    env: { ...(process.env as Record<string, string>), SVC_STATE_DIR: state },
    stderr: 'pipe',
  });
  const log = { stderr: '' };
  transport.stderr?.on('data', (chunk) => (log.stderr += chunk));
  await client.connect(transport);
  bridges.push(client);
  return { client, log, changes };
}

/** The error a request was refused with, as the client holds it: its JSON-RPC code, message and data. */
async function refusal(request: Promise<unknown>) {
  const error = await request.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ProtocolError.isInstance(error), String(error)).toBe(true);
  const { code, message, data } = error as ProtocolError;
  return { code, message, data };
}

for (const [era, negotiation] of ERAS) {
  test(`${era}: a JSON-RPC error of svc dev reaches the client unchanged, and the bridge stays connected`, async ({
    browser,
  }) => {
    const running = await startPlatform(browser);
    const { client, log } = await connectStdio('error-test', negotiation);
    const http = await connectMcp(running, { versionNegotiation: negotiation });
    const overStdio = await refusal(client.callTool({ name: 'nope', arguments: {} }));
    expect(overStdio).toEqual(await refusal(http.callTool({ name: 'nope', arguments: {} })));
    expect(overStdio).toMatchObject({ code: -32602, message: expect.stringContaining('Tool nope not found') });
    expect(overStdio.message).not.toContain('connection');
    await http.close();
    // Nothing was lost: the next call runs in the page over the same connection to svc dev.
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError, resultText(result)).toBeFalsy();
    expect(log.stderr).not.toContain('restarted');
  });

  test(`${era}: the app sees the client's own name as the agent id and the delegated token's actor`, async ({
    browser,
  }) => {
    await startPlatform(browser);
    // Typed decomposed (e + U+0301), with a letter of another script: kept as letters, in NFC.
    const { client } = await connectStdio('Claude Cafe\u0301 助手', negotiation);
    const id = 'claude-caf\u00e9-助手';
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError, resultText(result)).toBeFalsy();
    expect(result.structuredContent).toEqual({ agent_id: id, act_sub: id });
    await expect(page!.frameLocator('[data-testid=app-frame]').locator('#out')).toHaveText(`called by ${id}`);
    await page!.getByTestId('tab-Agent').click();
    await expect(page!.getByTestId('mcp-call').first()).toContainText(`whoami · MCP · ${id}`);
  });

  test(`${era}: started before svc dev, it serves the manifest's tools, says to start svc dev, then relays`, async ({
    browser,
  }) => {
    const { client, log, changes } = await connectStdio('early-bird', negotiation);
    expect(log.stderr).toContain(`svc mcp: no svc dev runs for ${dir} yet; serving the tools of`);
    expect(client.getInstructions()).toContain('running in svc dev');
    const offline = await client.listTools();
    expect(offline.tools.map((t) => t.name)).toEqual(['whoami']);
    const early = await client.callTool({ name: 'whoami', arguments: {} });
    expect(early.isError).toBe(true);
    expect(resultText(early)).toBe(
      `ERR_HOST_UNREACHABLE: no svc dev runs for ${dir} now: start it (npx svc-sdk dev ${dir}) and keep its messenger page open; this bridge finds it by itself on the next call.`,
    );
    expect(early._meta?.['dev.svc/error']).toEqual({ code: 'ERR_HOST_UNREACHABLE', retriable: true });
    // What svc dev would refuse, the bridge refuses alike without it: a tool the app does not have, and arguments
    // that do not fit (svc dev's answers are compared below, once it runs).
    const unknownOffline = await refusal(client.callTool({ name: 'nope', arguments: {} }));
    expect(unknownOffline).toMatchObject({ code: -32602, message: expect.stringContaining('Tool nope not found') });
    const badOffline = await client.callTool({ name: 'whoami', arguments: { extra: 1 } });
    expect(badOffline._meta?.['dev.svc/error']).toEqual({ code: 'ERR_ACTION_INVALID_INPUT', retriable: false });

    // svc dev starts with another action: the client is told its tools changed, without calling anything.
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    manifest.actions.push({ ...manifest.actions[0], name: 'whoami_too', title: 'Who am I, again' });
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const running = await startPlatform(browser);
    await expect.poll(() => changes.at(-1), { timeout: 10_000 }).toEqual(['whoami', 'whoami_too']);
    expect(log.stderr).toContain(`svc mcp: svc dev started; forwarding to ${running.mcpUrl} now.`);
    const http = await connectMcp(running, { versionNegotiation: negotiation });
    expect((await client.listTools()).tools).toEqual((await http.listTools()).tools);
    expect(unknownOffline).toEqual(await refusal(http.callTool({ name: 'nope', arguments: {} })));
    expect(badOffline).toEqual(await http.callTool({ name: 'whoami', arguments: { extra: 1 } }));
    await http.close();
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError, resultText(result)).toBeFalsy();
    expect(result.structuredContent).toEqual({ agent_id: 'early-bird', act_sub: 'early-bird' });
  });

  test(`${era}: initialize names the app and says what the tools are, as over HTTP`, async ({ browser }) => {
    const running = await startPlatform(browser);
    const { client } = await connectStdio('hello-test', negotiation);
    const http = await connectMcp(running, { versionNegotiation: negotiation });
    expect(client.getServerVersion()).toEqual(http.getServerVersion());
    expect(client.getServerVersion()?.title).toBe(`svc dev: ${running.manifest!.name}`);
    expect(client.getInstructions()).toBe(http.getInstructions());
    expect(client.getInstructions()).toContain(`the mini app "${running.manifest!.name}"`);
    await http.close();
  });
}

test('offline, the manifest tools are those svc dev lists once it runs, and no change is announced', async ({
  browser,
}) => {
  // A tool with an output schema too: svc dev's list gives its fields in another order than the manifest's tools.
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  const output_schema = { type: 'object', properties: { agent_id: { type: 'string' } }, required: ['agent_id'] };
  manifest.actions.push({ ...manifest.actions[0], name: 'whoami_typed', output_schema });
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const { client, changes } = await connectStdio('same-tools', undefined);
  const offline = (await client.listTools()).tools;
  // A call while none runs starts the bridge's look for svc dev, as the list does.
  expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBe(true);
  const running = await startPlatform(browser);
  const http = await connectMcp(running);
  expect(offline).toEqual((await http.listTools()).tools);
  await http.close();
  // The bridge looks every second; by 3 s it has found svc dev and compared.
  await new Promise((wait) => setTimeout(wait, 3000));
  expect(changes).toEqual([]);
  expect((await client.listTools()).tools).toEqual(offline);
});

test('offline, an edit of the manifest that changes its tools is announced once, as svc dev announces it', async () => {
  const { client, changes } = await connectStdio('edits', undefined);
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  manifest.actions.push({ ...manifest.actions[0], name: 'whoami_too', title: 'Who am I, again' });
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  // The client's own listChanged handler lists again on the notice: the new tool is there.
  await expect.poll(() => changes, { timeout: 10_000 }).toEqual([['whoami', 'whoami_too']]);
  // An edit that changes no tool (the version) is not announced.
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, version: '1.0.1' }));
  await new Promise((wait) => setTimeout(wait, 2500));
  expect(changes).toHaveLength(1);
});

/** A raw client's `initialize` (id 1) at `protocolVersion`, as one line. */
const initializeLine = (protocolVersion = '2025-11-25') =>
  `${JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  })}\n`;

/** The bridge as a raw process, and the JSON lines it writes on stdout. */
function spawnBridge(): { child: ChildProcessWithoutNullStreams; lines: () => Array<Record<string, unknown>> } {
  const child = spawn(process.execPath, [cli, 'mcp', dir], { env: { ...process.env, SVC_STATE_DIR: state } });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const lines = () =>
    out
      .slice(0, out.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, lines };
}

test('a line that is not JSON (or no JSON-RPC message) is answered with its error (id null), and the next one is served', async ({
  browser,
}) => {
  await startPlatform(browser);
  const { child, lines } = spawnBridge();
  try {
    child.stdin.write('this is not json\n');
    child.stdin.write(Buffer.from([0x7b, 0xff, 0x7d, 0x0a])); // `{`, a byte that is never UTF-8, `}`
    child.stdin.write('{"foo":1}\n'); // JSON, but no JSON-RPC message
    child.stdin.write(initializeLine());
    await expect.poll(() => lines().length, { timeout: 10_000 }).toBe(4);
    const [notJson, notUtf8, notRpc, initialized] = lines();
    expect(notRpc).toMatchObject({
      id: null,
      error: { code: -32600, message: 'Invalid Request: the message has no "jsonrpc": send "jsonrpc": "2.0".' },
    });
    expect(notJson).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not JSON: send one JSON-RPC message a line.' },
    });
    expect(notUtf8).toMatchObject({ id: null, error: { code: -32700, message: expect.stringContaining('UTF-8') } });
    expect(initialized).toMatchObject({
      id: 1,
      result: {
        serverInfo: { name: 'svc-dev', title: expect.stringMatching(/^svc dev: /) },
        instructions: expect.stringContaining('svc dev'),
      },
    });
  } finally {
    child.stdin.end();
  }
  expect(await new Promise((done) => child.once('exit', done))).toBe(0);
});

test("a batch is answered in one array; a message the SDK would skip is answered with its id; a body over svc dev's size gets its error", async ({
  browser,
}) => {
  // An action that answers after 3 s: a request of a batch the client cancels meanwhile.
  dir = await writeMcpTestApp(
    [WHOAMI, { name: 'slow', title: 'Slow', description: 'Answers after three seconds, with ok.' }],
    `${APP}\nsvc.actions.handle('slow', () => new Promise((done) => setTimeout(() => done({ ok: true }), 3000)));`,
  );
  await startPlatform(browser);
  const { child, lines } = spawnBridge();
  const answerTo = (id: unknown) => lines().find((line) => !Array.isArray(line) && line.id === id);
  const batches = () =>
    lines().filter((line) => Array.isArray(line)) as unknown as Array<Array<Record<string, unknown>>>;
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
  try {
    child.stdin.write(initializeLine('2025-03-26'));
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await expect
      .poll(() => answerTo(1), { timeout: 10_000 })
      .toMatchObject({ result: { protocolVersion: '2025-03-26' } });
    // Skipped by the SDK before (each sender waited for ever): an id that is null, an object or not an integer,
    // params that are a string.
    child.stdin.write('{"jsonrpc":"2.0","id":null,"method":"ping"}\n');
    child.stdin.write('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n');
    child.stdin.write('{"jsonrpc":"2.0","id":23.5,"method":"ping"}\n');
    child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"x"}\n');
    // A cursor tools/list never gave: -32602, not the SDK's -32603 with its validation dump.
    child.stdin.write('{"jsonrpc":"2.0","id":31,"method":"tools/list","params":{"cursor":5}}\n');
    const invalid = { code: -32600, message: expect.stringContaining('Invalid Request') };
    await expect.poll(() => answerTo(2), { timeout: 10_000 }).toMatchObject({ error: invalid });
    expect(answerTo(23.5)).toMatchObject({ error: invalid });
    await expect
      .poll(() => answerTo(31), { timeout: 10_000 })
      .toMatchObject({ error: { code: -32602, message: expect.stringContaining('cursor 5 was never given') } });
    expect(lines().filter((line) => !Array.isArray(line) && line.id === null)).toHaveLength(2);
    // A batch: its requests answered in one array, an invalid member with its error there; an empty one refused; one
    // of notifications only answered with nothing.
    child.stdin.write(`${JSON.stringify([ping(3), ping(4), { jsonrpc: '2.0', id: 5 }])}\n`);
    child.stdin.write('[]\n');
    child.stdin.write(`${JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }])}\n`);
    // A call of the batch cancelled: its batch stops waiting for it.
    child.stdin.write(
      `${JSON.stringify([ping(6), { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow' } }])}\n`,
    );
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } })}\n`,
    );
    // An id repeated in a batch (the client's mistake): both answers in the one array.
    child.stdin.write(`${JSON.stringify([ping(12), ping(12)])}\n`);
    // After a byte order mark, as some writers start a line: read, not skipped.
    child.stdin.write(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${JSON.stringify(ping(13))}\n`)]));
    await expect.poll(() => answerTo(13), { timeout: 10_000 }).toEqual({ jsonrpc: '2.0', id: 13, result: {} });
    await expect.poll(() => batches().length, { timeout: 10_000 }).toBe(3);
    expect(batches()[2]).toEqual([
      { jsonrpc: '2.0', id: 12, result: {} },
      { jsonrpc: '2.0', id: 12, result: {} },
    ]);
    const [first, second] = batches();
    expect(first).toHaveLength(3);
    expect(first).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 3, result: {} },
        { jsonrpc: '2.0', id: 4, result: {} },
        { jsonrpc: '2.0', id: 5, error: invalid },
      ]),
    );
    expect(second).toEqual([{ jsonrpc: '2.0', id: 6, result: {} }]);
    expect(
      lines().find(
        (line) =>
          !Array.isArray(line) &&
          line.id === null &&
          String((line.error as { message?: string })?.message).includes('empty'),
      ),
    ).toBeTruthy();
    // A call over svc dev's 4 MiB: svc dev's own JSON-RPC error, not a lost connection to call again.
    const huge = {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'whoami', arguments: { pad: 'x'.repeat(5 * 1024 * 1024) } },
    };
    child.stdin.write(`${JSON.stringify(huge)}\n`);
    await expect
      .poll(() => answerTo(8), { timeout: 10_000 })
      .toMatchObject({
        error: { code: -32000, message: expect.stringContaining('4194304') },
      });
    child.stdin.write(`${JSON.stringify(ping(9))}\n`);
    await expect.poll(() => answerTo(9), { timeout: 10_000 }).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
    await new Promise((wait) => setTimeout(wait, 3500));
    expect(answerTo(7)).toBeUndefined();
    expect(batches()).toHaveLength(3);
    // A batch of 101 is refused as over HTTP (50,000 on a line held the bridge for a minute); 100 are answered.
    child.stdin.write(`${JSON.stringify(Array.from({ length: 101 }, (_, i) => ping(1000 + i)))}\n`);
    child.stdin.write(`${JSON.stringify(Array.from({ length: 100 }, (_, i) => ping(2000 + i)))}\n`);
    await expect.poll(() => batches().length, { timeout: 10_000 }).toBe(4);
    expect(batches()[3]).toHaveLength(100);
    expect(
      lines().some(
        (line) =>
          !Array.isArray(line) &&
          line.id === null &&
          (line.error as { message?: string })?.message ===
            'Invalid Request: Batch must not exceed 100 messages (this one holds 101): send it in parts.',
      ),
    ).toBe(true);
  } finally {
    child.stdin.end();
  }
});

test('a line longer than the bridge reads is refused with its id and skipped; the bridge stays up', async () => {
  const { child, lines } = spawnBridge();
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    child.stdin.write(initializeLine());
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    // 16 MiB: the MCP SDK's transport closed at its 10 MiB (the process ended, code 13, every call unanswered).
    const pad = 'x'.repeat(16 * 1024 * 1024);
    child.stdin.write(
      `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"whoami","arguments":{"pad":"${pad}"}}}\n`,
    );
    child.stdin.write(
      `{"method":"tools/call","jsonrpc":"2.0","id":3,"params":{"name":"whoami","arguments":{"pad":"${pad}"}}}\n`,
    );
    child.stdin.write('{"jsonrpc":"2.0","id":4,"method":"ping"}\n');
    await expect
      .poll(() => lines().find((line) => line.id === 4), { timeout: 20_000 })
      .toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    const refused = { code: -32600, message: expect.stringContaining('is over 10485760 bytes') };
    expect(lines().find((line) => line.id === 'big')).toMatchObject({ error: refused });
    // Its id not first: said with id null, as JSON-RPC does when the id cannot be read.
    expect(lines().find((line) => line.id === null)).toMatchObject({ error: refused });
    expect(exited).toBe(false);
  } finally {
    child.stdin.end();
  }
});

test('an own __proto__ in the arguments is named as any key the inputSchema refuses, before svc dev and with it', async ({
  browser,
}) => {
  const { child, lines } = spawnBridge(); // Written by hand: JSON.stringify would leave out a __proto__ made by an object literal.
  const call = (id: number) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"whoami","arguments":{"__proto__":{"x":1}}}}\n`;
  const refusal =
    'ERR_ACTION_INVALID_INPUT: the arguments do not fit the inputSchema of whoami: $.__proto__ is not an accepted property; remove it';
  try {
    child.stdin.write(initializeLine());
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    child.stdin.write(call(2));
    await expect.poll(() => lines().find((l) => l.id === 2), { timeout: 10_000 }).toBeTruthy();
    const before = lines().find((l) => l.id === 2) as { result: { content: { text: string }[] } };
    expect(before.result.content[0]!.text).toContain(refusal);
    await startPlatform(browser);
    child.stdin.write(call(3));
    await expect.poll(() => lines().find((l) => l.id === 3), { timeout: 10_000 }).toBeTruthy();
    const running = lines().find((l) => l.id === 3) as { result: { content: { text: string }[] } };
    expect(running.result.content[0]!.text).toContain(refusal);
  } finally {
    child.stdin.end();
  }
});
