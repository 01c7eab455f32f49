// The MCP endpoint of svc dev over real loopback HTTP, without a browser: its guards (token, Host, Origin), the
// immediate error when no messenger page is open, the tool list following manifest.json, the CLI's `mcp export` and
// `validate --agent` through the built bin, and actions.cancel through svc-sdk/mock.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevEvent, type DevPlatform, formatDevEvent, startDevPlatform } from '../../src/dev';
import { createInvocationRelay } from '../../src/dev/mcp/createInvocationRelay';
import { createMcpEndpoint } from '../../src/dev/mcp/createMcpEndpoint';
import { toolsFromManifest } from '../../src/dev/mcp/toolsFromManifest';
import { createMockHost } from '../../src/mock';
import { exchangeManifest } from '../mock/fixtures';
import { rpc } from './mcpRpc';

const root = resolve(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
const run = promisify(execFile);

/** A raw request, so that Host and Origin are exactly what the test says. */
function raw(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Edits the app's manifest.json as a developer would (one more host the app may connect to), and waits until the
 * platform serves the edit: the package's CSP and the platform's manifest both name the host.
 */
async function allowHostByEdit(dir: string, platform: DevPlatform) {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  manifest.network.connect.push('api.edited.example');
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await expect
    .poll(async () => (await fetch(platform.appUrl)).headers.get('content-security-policy'), { timeout: 5000 })
    .toContain('api.edited.example');
  expect(platform.manifest?.network.connect).toContain('api.edited.example');
}

const connect = async (platform: DevPlatform, negotiation?: { mode: 'auto' }) => {
  const client = new Client({ name: 'svc-test', version: '0' }, { versionNegotiation: negotiation });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(platform.mcpUrl!), {
      requestInit: { headers: { Authorization: `Bearer ${platform.mcpToken}` } },
    }),
  );
  return client;
};

describe('the MCP endpoint of svc dev', () => {
  let platform: DevPlatform;
  let dir: string;
  beforeAll(async () => {
    // A copy of Team Polls, so that the test may edit its manifest.
    dir = await mkdtemp(join(tmpdir(), 'svc-mcp-'));
    await cp(join(root, 'examples/polls'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
    platform = await startDevPlatform({ dir, port: 0 });
  });
  afterAll(() => platform?.close());

  it('has its own 256-bit token, separate from the control token, never in the URL', () => {
    expect(platform.mcpUrl).toBe(`${platform.origin}/mcp`);
    expect(Buffer.from(platform.mcpToken!, 'base64url')).toHaveLength(32);
    expect(platform.mcpToken).not.toBe(platform.controlToken);
  });

  it('refuses no token (401), a wrong one (401), a foreign Host (403) and any Origin, the app own one too (403)', async () => {
    const host = new URL(platform.origin).host;
    const auth = { authorization: `Bearer ${platform.mcpToken}` };
    const none = await raw(platform.mcpUrl!, { host });
    expect(none.status).toBe(401);
    expect(none.body).not.toContain(platform.mcpToken);
    expect(none.body).toContain(
      'send the header \\"Authorization: Bearer <token>\\" with the MCP token svc dev printed.',
    );
    // A token, but not this run's: most often an earlier run's, still in a client's configuration.
    const stale = await raw(platform.mcpUrl!, { host, authorization: `Bearer ${'x'.repeat(43)}` });
    expect(stale.status).toBe(401);
    expect(stale.body).toContain("the token is not this run's MCP token: svc dev makes a new one at each start.");
    expect((await raw(platform.mcpUrl!, { ...auth, host: 'attacker.example' })).status).toBe(403);
    expect(
      (await raw(platform.mcpUrl!, { ...auth, host: `attacker.example:${new URL(platform.origin).port}` })).status,
    ).toBe(403);
    // The app's package origin is http://localhost:<port>: a host-name-only check would let it in.
    const appOrigin = platform.appOrigin.replace('127.0.0.1', 'localhost');
    for (const origin of [platform.appOrigin, appOrigin, platform.origin, 'https://evil.example'])
      expect((await raw(platform.mcpUrl!, { ...auth, host, origin })).status).toBe(403);
    // No Origin (CLIs, editors): served.
    expect((await raw(platform.mcpUrl!, { ...auth, host })).status).toBe(200);
    expect((await raw(platform.mcpUrl!, { ...auth, host: `localhost:${new URL(platform.origin).port}` })).status).toBe(
      200,
    );
  });

  it('tells a 2025-era client what to send: the session id initialize answered with, the clientInfo it needs', async () => {
    const send = (method: string, body?: object) =>
      fetch(platform.mcpUrl!, {
        method,
        headers: {
          authorization: `Bearer ${platform.mcpToken}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: body && JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        message: ((await r.json()) as { error: { message: string } }).error.message,
      }));
    const noSession = {
      status: 400,
      message:
        'Bad Request: send the Mcp-Session-Id header that the answer to initialize carried (initialize first if you have none).',
    };
    expect(await send('POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual(noSession);
    expect(await send('GET')).toEqual(noSession);
    expect(await send('DELETE')).toEqual(noSession);
    expect(
      await send('POST', {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {} },
      }),
    ).toEqual({
      status: 400,
      message:
        'Bad Request: initialize needs params.clientInfo with the client\'s name ({ "name": "my-agent", "version": "1.0.0" }).',
    });
  });

  it('takes the bearer scheme in any case, and an initialize whose clientInfo has no version', async () => {
    const host = new URL(platform.origin).host;
    for (const scheme of ['bearer', 'BEARER', 'Bearer'])
      expect((await raw(platform.mcpUrl!, { host, authorization: `${scheme} ${platform.mcpToken}` })).status).toBe(200);
    const noVersion = await rpc(platform, {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'no-version' } },
    });
    expect(noVersion.status).toBe(200);
    expect(noVersion.session).toBeTruthy();
    expect(noVersion.body).toContain('"serverInfo"');
  });

  it('answers tools/list with a cursor -32602: it lists every tool at once, so it never gives one', async () => {
    const init = await rpc(platform, {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cursor', version: '1' } },
    });
    await rpc(platform, { method: 'notifications/initialized' }, init.session);
    for (const cursor of [5, 'abc', null]) {
      const listed = await rpc(platform, { id: 7, method: 'tools/list', params: { cursor } }, init.session);
      expect(JSON.parse(listed.body)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32602,
          message: `Invalid params: cursor ${JSON.stringify(cursor)} was never given: tools/list lists every tool at once, so send no cursor.`,
        },
      });
    }
    // Without one, the tools.
    const all = await rpc(platform, { id: 8, method: 'tools/list', params: {} }, init.session);
    expect(all.body).toContain('"tools"');
  });

  it('names the member of a message that is no JSON-RPC message, in a session, alone or in a batch', async () => {
    const init = await rpc(platform, {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'members', version: '1' } },
    });
    await rpc(platform, { method: 'notifications/initialized' }, init.session);
    const cases: Array<[string, string]> = [
      ['{"jsonrpc":"2.0","id":null,"method":"tools/list"}', '"id" is null: send a string or an integer'],
      ['{"jsonrpc":"2.0","id":{},"method":"tools/list"}', '"id" is an object: send a string or an integer'],
      ['{"id":7,"method":"tools/list"}', 'the message has no "jsonrpc": send "jsonrpc": "2.0".'],
      ['{"jsonrpc":"2.0","id":5,"method":"tools/call","params":["echo"]}', '"params" is an array: send an object'],
      ['{"jsonrpc":"2.0","id":6,"method":7}', '"method" is the number 7'],
      [
        '[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"1.0","id":2,"method":"tools/list"}]',
        'message 2 of the batch: "jsonrpc" is "1.0": send "jsonrpc": "2.0".',
      ],
    ];
    for (const [body, said] of cases) {
      const answer = await rpc(platform, body, init.session);
      expect(answer.status, body).toBe(400);
      const { error } = JSON.parse(answer.body) as { error: { code: number; message: string } };
      expect(error.code, body).toBe(-32600);
      expect(error.message, body).toContain(said);
    }
    // A method Streamable HTTP does not have is 405, naming the three it has.
    for (const method of ['PUT', 'PATCH']) {
      const other = await fetch(platform.mcpUrl!, {
        method,
        headers: { authorization: `Bearer ${platform.mcpToken}` },
      });
      expect([other.status, other.headers.get('allow')]).toEqual([405, 'GET, POST, DELETE']);
    }
    // A response of the client's (an answer to an elicitation) is no request, and goes on.
    const response = await rpc(platform, '{"jsonrpc":"2.0","id":"x","result":{}}', init.session);
    expect(response.status).toBe(202);
  });

  it('answers arguments nested 5,000 deep with a clear error, not a stack overflow', async () => {
    const init = await rpc(platform, {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'deep', version: '0' } },
    });
    await rpc(platform, { method: 'notifications/initialized' }, init.session);
    // Written by hand: JSON.stringify itself overflows at this depth.
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const call = await rpc(
      platform,
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_poll","arguments":{"question":${deep}}}}`,
      init.session,
    );
    expect(call.status).toBe(200);
    expect(call.body).toContain('ERR_ACTION_INVALID_INPUT: the arguments of create_poll nest more than 64 levels deep');
    expect(call.body).not.toContain('call stack');
  });

  /** A tools/call of create_poll in a fresh 2025-era session, with `args` as the exact text or bytes of its arguments. */
  async function callWith(args: string | Buffer) {
    const init = await rpc(platform, {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'odd', version: '0' } },
    });
    await rpc(platform, { method: 'notifications/initialized' }, init.session);
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_poll","arguments":'),
      Buffer.from(args),
      Buffer.from('}}'),
    ]);
    const { status, body: answer } = await rpc(platform, body, init.session);
    return { status, body: answer };
  }

  it('refuses a body that is not UTF-8 with a JSON-RPC parse error, instead of running it with U+FFFD', async () => {
    const call = await callWith(
      Buffer.concat([Buffer.from('{"question":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    );
    expect(call.status).toBe(400);
    expect(JSON.parse(call.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the request body is not valid UTF-8: send JSON encoded as UTF-8.' },
      id: null,
    });
  });

  it('names an own __proto__ argument as it names any key the inputSchema does not accept, instead of dropping it', async () => {
    const call = await callWith('{"question":"Lunch?","__proto__":{"question":"x"}}');
    expect(call.status).toBe(200);
    expect(call.body).toContain(
      'ERR_ACTION_INVALID_INPUT: the arguments do not fit the inputSchema of create_poll: $.__proto__ is not an accepted property; remove it',
    );
  });

  it('names a lone surrogate and a number out of range where the agent sent them, not as the null they become', async () => {
    const lone = await callWith('{"question":"Lunch \\ud800?"}');
    expect(lone.body).toContain(
      'ERR_ACTION_INVALID_INPUT: the arguments of create_poll: $.question contains a lone surrogate (U+D800) at character 7; send well-formed Unicode text',
    );
    const huge = await callWith('{"question":"Lunch?","options":["a","b"],"n":1e400}');
    expect(huge.body).toContain(
      'ERR_ACTION_INVALID_INPUT: the arguments of create_poll: $.n is a number out of range (beyond ±1.8e308, read as Infinity); send a finite number.',
    );
    expect(huge.body).not.toContain('got null');
  });

  it("opens a session's event stream (GET) at once, not with the first notification or keep-alive 15 s later", async () => {
    const init = await rpc(platform, {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    const stream = new AbortController();
    // No notification is due: the answer's headers are all that can arrive before the keep-alive.
    const opened = fetch(platform.mcpUrl!, {
      headers: {
        authorization: `Bearer ${platform.mcpToken}`,
        accept: 'text/event-stream',
        'mcp-session-id': init.session!,
        'mcp-protocol-version': '2025-11-25',
      },
      signal: stream.signal,
    });
    const late = new Promise<'late'>((resolve) => setTimeout(resolve, 5000, 'late'));
    try {
      const answer = await Promise.race([opened, late]);
      expect(answer).not.toBe('late');
      expect([(answer as Response).status, (answer as Response).headers.get('content-type')]).toEqual([
        200,
        'text/event-stream',
      ]);
    } finally {
      stream.abort();
    }
  });

  it('serves no OAuth discovery metadata', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])
      expect((await fetch(`${platform.origin}${path}`)).status).toBe(404);
  });

  for (const negotiation of [undefined, { mode: 'auto' as const }])
    it(`fails at once, naming the page to open, when no messenger page is open (${negotiation ? '2026' : '2025'} era)`, async () => {
      const client = await connect(platform, negotiation);
      const result = await client.callTool({
        name: 'create_poll',
        arguments: { question: 'Lunch?', options: ['a', 'b'] },
      });
      expect(result.isError).toBe(true);
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      expect(text).toMatch(
        /^ERR_HOST_UNREACHABLE: no messenger page is open\. Open the messenger page svc dev printed/,
      );
      expect(text).toContain(platform.origin);
      expect(text).not.toContain(platform.controlToken);
      expect(result._meta?.['dev.svc/error']).toEqual({ code: 'ERR_HOST_UNREACHABLE', retriable: true });
      await client.close();
    });

  it('tells connected clients when manifest.json changes, and lists the new tools', async () => {
    const changed: string[][] = [];
    const client = new Client(
      { name: 'svc-test', version: '0' },
      { listChanged: { tools: { onChanged: (_e, tools) => changed.push((tools ?? []).map((t) => t.name)) } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(platform.mcpUrl!), {
        requestInit: { headers: { Authorization: `Bearer ${platform.mcpToken}` } },
      }),
    );
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    manifest.actions.push({ ...manifest.actions[0], name: 'create_survey', title: 'Create a survey' });
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await expect.poll(() => changed.at(-1), { timeout: 5000 }).toContain('create_survey');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'create_poll',
      'delete_poll',
      'create_survey',
    ]);
    await client.close();
  });
});

describe('an edit of manifest.json that leaves the tools alone', () => {
  it('is served (the platform and the package policies) without telling MCP clients of a tool change', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-mcp-'));
    await cp(join(root, 'examples/polls'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
    const platform = await startDevPlatform({ dir, port: 0 });
    try {
      let changes = 0;
      const client = new Client(
        { name: 'svc-test', version: '0' },
        {
          listChanged: {
            tools: {
              onChanged: () => {
                changes += 1;
              },
            },
          },
        },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(platform.mcpUrl!), {
          requestInit: { headers: { Authorization: `Bearer ${platform.mcpToken}` } },
        }),
      );
      await allowHostByEdit(dir, platform);
      expect(changes).toBe(0);
      await client.close();
    } finally {
      await platform.close();
    }
  });
});

describe('an edit of manifest.json without the agent bridge', () => {
  it("is served all the same: the watch is the platform's, not the MCP endpoint's (--no-mcp)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-mcp-'));
    await cp(join(root, 'examples/polls'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
    const platform = await startDevPlatform({ dir, port: 0, mcp: false });
    try {
      expect(platform.mcpUrl).toBeUndefined();
      await allowHostByEdit(dir, platform);
    } finally {
      await platform.close();
    }
  });
});

describe('the CLI', () => {
  it('svc mcp export prints the tools/list result of a folder', async () => {
    const { stdout } = await run(process.execPath, [cli, 'mcp', 'export', join(root, 'examples/polls')]);
    const manifest = JSON.parse(await readFile(join(root, 'examples/polls/manifest.json'), 'utf8'));
    expect(JSON.parse(stdout)).toEqual(toolsFromManifest(manifest));
    const [create, remove] = JSON.parse(stdout).tools;
    expect(create.annotations).toEqual({
      title: 'Create a poll',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(remove._meta['dev.svc/action']).toEqual({ confirm: 'if_destructive' });
  });

  it("svc mcp without a running svc dev serves the manifest's tools and says to start it; exit 0 when stdin ends", async () => {
    // Its client closes stdin at once here: the bridge says what it serves on stderr, then stops.
    const bridge = run(process.execPath, [cli, 'mcp', join(root, 'examples/polls')], {
      env: { ...process.env, SVC_STATE_DIR: await mkdtemp(join(tmpdir(), 'svc-state-')) },
    });
    bridge.child.stdin?.end();
    const { stderr } = await bridge;
    expect(stderr).toMatch(
      /^svc mcp: no svc dev runs for .* yet; serving the tools of Team Polls from its manifest over stdio\. Their calls run once svc dev runs: start it \(npx svc-sdk dev /,
    );
  });

  it('svc validate --agent warns about long names, refused keywords and non-object outputs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-agent-'));
    const manifest = exchangeManifest() as { actions: Array<Record<string, unknown>> };
    const [first] = manifest.actions;
    manifest.actions = [
      {
        ...first,
        name: `x${'y'.repeat(56)}`,
        input_schema: {
          type: 'object',
          $defs: { q: { type: 'string' } },
          properties: { q: { $ref: '#/$defs/q' } },
          additionalProperties: false,
        },
        output_schema: { type: 'array', items: { type: 'string' } },
        annotations: { read_only: false, destructive: true, idempotent: false, open_world: false },
        confirm: 'never',
      },
    ];
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const plain = await run(process.execPath, [cli, 'validate', '--json', join(dir, 'manifest.json')]);
    const plainCodes = JSON.parse(plain.stdout).files[0].issues.map((i: { code: string }) => i.code);
    expect(plainCodes.filter((c: string) => c.startsWith('agent_'))).toEqual([]);
    const { stdout } = await run(process.execPath, [cli, 'validate', '--agent', '--json', join(dir, 'manifest.json')]);
    const report = JSON.parse(stdout);
    expect(report.ok).toBe(true);
    const codes = report.files[0].issues.map((i: { code: string; path: string }) => `${i.code} ${i.path}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'agent_tool_name_length $.actions[0].name',
        'agent_schema_keyword $.actions[0].input_schema.$defs',
        'agent_schema_keyword $.actions[0].input_schema.properties.q.$ref',
        'agent_output_root $.actions[0].output_schema',
      ]),
    );
    // Destructive with confirm "never" is a warning of every validation, reported once.
    expect(codes.filter((c: string) => c.endsWith('$.actions[0].confirm'))).toHaveLength(1);
    expect(codes).not.toContain('agent_tool_count $.actions');
    // More actions than many clients pass a model: said once, for the list.
    const many = exchangeManifest() as { actions: Array<Record<string, unknown>> };
    many.actions = Array.from({ length: 129 }, (_, i) => ({ ...many.actions[0], name: `read_${i}` }));
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(many));
    const counted = JSON.parse(
      (await run(process.execPath, [cli, 'validate', '--agent', '--json', join(dir, 'manifest.json')])).stdout,
    );
    expect(counted.ok).toBe(true);
    expect(
      counted.files[0].issues
        .filter((i: { code: string }) => i.code === 'agent_tool_count')
        .map((i: { message: string }) => i.message),
    ).toEqual([
      "$.actions declares 129 actions; many agent clients and model APIs pass at most 128 tools to a model (OpenAI's function calling, for one), so an agent may not see them all: merge actions that differ by a parameter, or keep the agent-facing ones to 128.",
    ]);
  });
});

describe('actions.cancel', () => {
  it("aborts the handler's context.signal and rejects the invocation with ERR_CANCELLED", async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    let aborted = false;
    let started!: () => void;
    const running = new Promise<void>((ok) => (started = ok));
    host.svc.actions.handle('list_polls', (_input, context) => {
      started();
      return new Promise((done) =>
        context.signal!.addEventListener('abort', () => {
          aborted = true;
          done([]);
        }),
      );
    });
    const controller = new AbortController();
    const call = host.invokeAction(
      'list_polls',
      {},
      { invoked_by: 'agent', agent_id: 'a1' },
      { signal: controller.signal },
    );
    await running;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'ERR_CANCELLED' });
    await host.flush();
    expect(aborted).toBe(true);
  });

  it('an invocation cancelled while it waits in the queue never runs', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const ran: string[] = [];
    let release!: () => void;
    host.svc.actions.handle('list_polls', (_input: { tag?: string }) => {
      ran.push('list');
      return new Promise((done) => (release = () => done([])));
    });
    const first = host.invokeAction('list_polls', {}, { invoked_by: 'user' });
    await host.flush();
    const controller = new AbortController();
    const second = host.invokeAction('list_polls', {}, { invoked_by: 'user' }, { signal: controller.signal });
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'ERR_CANCELLED' });
    release();
    await first;
    await host.flush();
    expect(ran).toEqual(['list']);
  });
});

/** A relay with no messenger page: its calls are answered by the test, or fail as no page is open. */
const pagelessRelay = () =>
  createInvocationRelay({
    page: () => undefined,
    pageOrigin: 'http://127.0.0.1:1',
    personTimeout: 1000,
    keepalive: 1000,
    secrets: () => [],
  });

describe('an action that fails in the app', () => {
  it("answers ERR_ACTION_FAILED with the app's message, then where to look and what to do", async () => {
    const token = 'k'.repeat(43);
    const relay = pagelessRelay();
    // As the page answers a handler that threw: the code and the client's sentence, nothing an agent can act on.
    relay.run = async () => ({
      ok: false,
      code: 'ERR_ACTION_FAILED',
      message: 'action create_poll failed: Failed to fetch',
      retriable: false,
    });
    const endpoint = createMcpEndpoint({ manifest: exchangeManifest() as never, relay, token, version: '1.0.0' });
    const server = createServer((req, res) => void endpoint.handle(req, res));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const client = new Client({ name: 'failure-test', version: '0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      const result = await client.callTool({ name: 'list_polls', arguments: {} });
      expect(result.isError).toBe(true);
      expect((result.content as Array<{ text: string }>)[0]!.text).toBe(
        "ERR_ACTION_FAILED: action create_poll failed: Failed to fetch. The app's handler failed: the messenger page's console shows why. Change the arguments if they caused it, or fix the handler, then call again.",
      );
      expect(result._meta?.['dev.svc/error']).toEqual({ code: 'ERR_ACTION_FAILED', retriable: false });
    } finally {
      await client.close().catch(() => {});
      await endpoint.close();
      server.close();
    }
  });
});

describe('2025-era sessions', () => {
  it('are capped (the least recently used goes) and closed once idle; the client is told to initialize again', async () => {
    const token = 'k'.repeat(43);
    const relay = pagelessRelay();
    const endpoint = createMcpEndpoint({
      manifest: exchangeManifest() as never,
      relay,
      token,
      version: '1.0.0',
      sessions: { max: 2, idleMs: 300 },
    });
    const server = createServer((req, res) => void endpoint.handle(req, res));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const open = async () => {
      const client = new Client({ name: 'session-test', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      return client;
    };
    const names = (client: Client) =>
      client.listTools().then(
        (r) => r.tools.map((t) => t.name),
        (e: Error) => e.message,
      );
    try {
      const [first, second] = [await open(), await open()];
      expect(await names(first)).toContain('list_polls');
      // A third session: `second` is now the least recently used, and goes.
      const third = await open();
      expect(await names(second)).toMatch(/Session not found: initialize again/);
      expect(await names(first)).toContain('list_polls');
      expect(await names(third)).toContain('list_polls');
      expect(endpoint.openSessions).toBe(2);
      // Unused for longer than idleMs: closed by the sweep (watched without using them, which would keep them).
      await expect.poll(() => endpoint.openSessions, { timeout: 5000 }).toBe(0);
      expect(await names(third)).toMatch(/Session not found/);
      await Promise.all([first, second, third].map((c) => c.close().catch(() => {})));
    } finally {
      await endpoint.close();
      server.close();
    }
  });
});

describe('a 2025-era session with a call running', () => {
  it('is not the one the cap closes: its call is answered, and the oldest idle session goes instead', async () => {
    const token = 'k'.repeat(43);
    const relay = pagelessRelay();
    let release!: () => void;
    const started = new Promise<void>((running) => {
      relay.run = () =>
        new Promise((answer) => {
          running();
          release = () => answer({ ok: true, value: { polls: [] } });
        });
    });
    const endpoint = createMcpEndpoint({
      manifest: exchangeManifest() as never,
      relay,
      token,
      version: '1.0.0',
      sessions: { max: 2, idleMs: 60_000 },
    });
    const server = createServer((req, res) => void endpoint.handle(req, res));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const open = async () => {
      const client = new Client({ name: 'busy-test', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      return client;
    };
    try {
      const busy = await open();
      const call = busy.callTool({ name: 'list_polls', arguments: {} });
      await started;
      const idle = await open();
      // Over the cap: the busy session is the least recently used, but its call runs, so the idle one goes.
      const newest = await open();
      expect(await idle.listTools().catch((e: Error) => e.message)).toMatch(/Session not found/);
      release();
      expect((await call).isError).toBeFalsy();
      expect((await busy.listTools()).tools.map((t) => t.name)).toContain('list_polls');
      expect((await newest.listTools()).tools.map((t) => t.name)).toContain('list_polls');
      await Promise.all([busy, idle, newest].map((c) => c.close().catch(() => {})));
    } finally {
      await endpoint.close();
      server.close();
    }
  });
});

describe('the terminal line of every MCP call', () => {
  it('is not there for a 2026-07-28 call the SDK refuses for its headers (-32020), which never was a tool not found', async () => {
    const events: DevEvent[] = [];
    const platform = await startDevPlatform({
      dir: join(root, 'examples/polls'),
      port: 0,
      onEvent: (e) => void events.push(e),
    });
    try {
      const client = new Client({ name: 'svc-test', version: '0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(platform.mcpUrl!), {
          requestInit: { headers: { Authorization: `Bearer ${platform.mcpToken}` } },
          // A client whose Mcp-Name header does not name the tool its body calls.
          fetch: (url, init) => {
            const headers = new Headers(init?.headers);
            if (headers.get('mcp-method') === 'tools/call') headers.set('mcp-name', 'another');
            return fetch(url, { ...init, headers });
          },
        }),
      );
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Mcp-Name/i);
      await client.close();
      expect(events.filter((e) => e.type === 'mcp')).toEqual([]);
    } finally {
      await platform.close();
    }
  });

  for (const negotiation of [undefined, { mode: 'auto' as const }])
    it(`is there for a call refused before the page (its arguments, or a tool the app does not have), as the agent got it, under the client's name (${negotiation ? '2026' : '2025'} era)`, async () => {
      const events: DevEvent[] = [];
      const platform = await startDevPlatform({
        dir: join(root, 'examples/polls'),
        port: 0,
        onEvent: (event) => {
          events.push(event);
        },
      });
      try {
        const client = await connect(platform, negotiation);
        const invalid = await client.callTool({ name: 'create_poll', arguments: { question: 7 } });
        expect(invalid.isError).toBe(true);
        await expect(client.callTool({ name: 'nope\u001b[2J', arguments: {} })).rejects.toThrow(/not found/);
        await client.close();
        const lines = events.filter((e) => e.type === 'mcp').map((e) => formatDevEvent(e));
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatch(
          /^\d\d:\d\d:\d\d {2}mcp {6}create_poll by svc-test: ERR_ACTION_INVALID_INPUT: the arguments do not fit the inputSchema of create_poll: \$\.question /,
        );
        // The agent's text is shown printable: no escape sequence reaches the terminal.
        expect(lines[1]).toMatch(
          /^\d\d:\d\d:\d\d {2}mcp {6}nope\\u001b\[2J by svc-test: -32602: Tool nope\\u001b\[2J not found \(the app's tools: create_poll, .*\)\. \(0 ms\)$/,
        );
      } finally {
        await platform.close();
      }
    });
});
