// What the agent bridge sends an agent, and what the person is asked during an agent's call, through the real
// surfaces: the official MCP client (over HTTP in both eras, and over the stdio bridge), a small app in the
// messenger page in Chromium. Tokens and secrets never reach the agent or the page's MCP call list, wherever they
// sit; a permission sheet raised during an agent's call times out like a confirmation and closes when the call
// ends; a client that dies mid-call closes the sheet it left open, and the action never runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type DevEvent, type DevPlatform, formatDevEvent, startDevPlatform } from '../../src/dev';
import { connectMcp, connectMcpStdio, openLivePage, resultText, writeMcpTestApp } from './mcpTestApp';

const root = resolve(import.meta.dirname, '../..');
const ERAS = [
  ['2025-era', undefined],
  ['2026-07-28', { mode: 'auto' as const }],
] as const;

// `leak` puts the app's delegated token (it carries act.sub) and the secrets it is given everywhere a value can
// sit; `fail` throws the app's own error with them; `ask_room` asks for a scope during the call; `remove` is
// destructive and always confirmed.
const APP = `
const out = document.getElementById('out');
const brand = Symbol.for('svc-sdk.error');
svc.actions.handle('leak', async ({ secrets }) => {
  const { access_token: token } = await svc.auth.getToken();
  svc.actions.progress(token + ' at the start, glued x_' + token + ', then ' + secrets.join(' and '));
  return {
    start: token + ' at the start',
    middle: 'a ' + token + ' b',
    end: 'ends with ' + token,
    glued: 'x_' + token,
    nested: { deeper: [{ token }, ['y_' + token]] },
    [token]: 'as a key',
    secrets,
    inside: secrets.map((s) => 'pre' + s + 'post'),
    // The forms ordinary code gives a token: an upstream's error echoing Basic authentication with it as the
    // password, a logger wrapping it, spaces around its dots, its dots URL-encoded.
    basic: 'upstream said 401 for Authorization: Basic ' + btoa('svc:' + token),
    doubled: ['Basic Basic ' + btoa('svc:' + token), 'Basic:' + btoa('svc:' + token), 'Bearer Bearer ' + token],
    // The word alone is no credential: prose stays as it is.
    prose: 'a basic poll, Basic settings',
    // A credential split from its scheme word into its own JSON value; a plan named Basic is no scheme.
    split: [['Basic', btoa('svc:' + token)], { Bearer: token.split('.').join('') }, ['Basic', 'Premium'], ['basic', btoa('svc:' + token)], { basic: btoa('svc:' + token) }],
    // Encoded as a URL or a form encodes it, folded as MIME folds base64, a zero-width space after the scheme, a JWT
    // alone in base64, a JWT whose dots JSON escaped twice.
    encodedBasic: ['Authorization=Basic%20' + encodeURIComponent(btoa('svc:' + token)), 'Basic+' + btoa('svc:' + token)],
    folded: 'Basic ' + btoa('svc:' + token).match(/.{1,76}/g).join('\\r\\n') + '\\r\\nthen a line of prose',
    // The same inside JSON text (headers serialised in an error), its line breaks escaped.
    foldedJson: JSON.stringify({ authorization: 'Basic ' + btoa('svc:' + token).match(/.{1,76}/g).join('\\r\\n') }),
    zeroWidth: 'Basic \u200b' + btoa('svc:' + token),
    jwtBase64: 'Basic ' + btoa(token),
    escapedDots: token.split('.').join('\\\\u002e'),
    wrapped: 'token=' + token.split('.').join('\\n.'),
    spaced: token.split('.').join(' . '),
    encoded: token.split('.').join('%2E'),
    // Full-width and other look-alike full stops, as a text converted to full width has them.
    lookAlikeDots: ['\u3002', '\uff0e', '\uff61', '\u2024', '\ufe52', '\u00b7', '\u2027'].map((dot) => token.split('.').join(dot)),
    // A zero-width space after or before each dot (a wrapper's break opportunity: the signature left alone gave the
    // token back), and a full-width dot URL-encoded or JSON-escaped.
    hiddenBreaks: ['.\u200b', '\u200b.', '.\u00ad', '%E3%80%82', '\\u3002'].map((dot) => token.split('.').join(dot)),
    // Any dot at all: another character, encoded or escaped (an invisible one too), doubled, an HTML entity.
    // Folded anywhere, as a logger wraps it every 64 characters or MIME every 76 (the first line alone was redacted, its
    // claims' rest and its signature left), and a zero-width space inside its claims.
    foldedAnywhere: [token.match(/.{1,64}/g).join('\\n'), token.match(/.{1,76}/g).join('\\r\\n'), token.slice(0, 60) + '\u200b' + token.slice(60)],
    anyDots: ['%C2%B7', '\\u00b7', '%E2%80%8B.', '.\\u200b', '\u2022', '\u30fb', '..', '&#46;', '%252E', '\\r\\n', '\\\\r\\\\n', '\\\\x2e', '-'].map((dot) =>
      token.split('.').join(dot),
    ),
  };
});
svc.actions.handle('fail', async ({ secrets }) => {
  const { access_token: token } = await svc.auth.getToken();
  // Its dots doubled too: the client's redaction takes the JWT's dots as they come, and left its signature.
  throw Object.assign(new Error('the poll is closed for x_' + token + ' and ' + secrets.join(' ') + ', Bearer ' + token + ' doubled ' + token.split('.').join('..')), {
    [brand]: 'SvcError', code: 'ERR_POLL_CLOSED', retriable: false,
  });
});
// A token folded every 64 characters, as a logger wraps it: the client's redaction may take its first line alone.
svc.actions.handle('fail_folded', async () => {
  const { access_token: token } = await svc.auth.getToken();
  throw new Error('failed with ' + token.match(/.{1,64}/g).join('\\n') + ' and ' + token.match(/.{1,76}/g).join('\\r\\n'));
});
// An upstream's error echoing a Basic credential, long enough that the client cuts the message inside it.
svc.actions.handle('fail_long', async () => {
  const { access_token: token } = await svc.auth.getToken();
  throw new Error('x'.repeat(600) + ' upstream said 401 for Basic ' + btoa('svc:' + token));
});
svc.actions.handle('ask_room', async () => {
  try {
    const answer = await svc.permissions.request('room.context');
    out.textContent = 'answer: ' + answer;
    return { answer };
  } catch (error) {
    out.textContent = 'rejected: ' + error.code;
    throw error;
  }
});
svc.actions.handle('unsendable', (_input, context) => ({ signal: context.signal }));
svc.actions.handle('square', ({ n }) => n * n);
// Megabytes of text on one line, where the page shows the app's texts.
svc.actions.handle('chatty', async () => {
  const { access_token: token } = await svc.auth.getToken();
  svc.actions.progress('p'.repeat(2_000_000));
  // A token the cut at 1,000 characters goes through: 30 characters of its header are what the cut leaves of it.
  svc.actions.progress('q'.repeat(970) + token);
  svc.ui.toast({ message: 't'.repeat(2_000_000) });
  svc.ui.setTitle('T'.repeat(2_000_000));
  return { done: true, log: 'l'.repeat(1_000_000) };
});
svc.actions.handle('fail_huge', () => {
  throw new Error('eyJa-'.repeat(200_000));
});
svc.actions.handle('remove', () => {
  out.textContent = 'removed';
  return { removed: true };
});
`;

const SECRETS_INPUT = {
  type: 'object',
  properties: { secrets: { type: 'array', items: { type: 'string' } } },
  required: ['secrets'],
  additionalProperties: false,
};

let platform: DevPlatform;
const events: DevEvent[] = [];
let page: Page;
let dir: string;
let state: string;

test.beforeEach(async ({ browser }) => {
  state = await mkdtemp(join(tmpdir(), 'svc-state-'));
  process.env.SVC_STATE_DIR = state;
  dir = await writeMcpTestApp(
    [
      {
        name: 'leak',
        title: 'Leak',
        description: 'Returns its token and the given secrets everywhere.',
        input_schema: SECRETS_INPUT,
      },
      {
        name: 'fail',
        title: 'Fail',
        description: 'Throws an error that names its token and secrets.',
        input_schema: SECRETS_INPUT,
      },
      { name: 'fail_long', title: 'Fail long', description: 'Throws a long error that ends in a credential.' },
      {
        name: 'fail_folded',
        title: 'Fail folded',
        description: 'Throws an error that holds its token folded onto lines.',
      },
      { name: 'ask_room', title: 'Ask for the room', description: 'Asks the person for the room during the call.' },
      {
        name: 'unsendable',
        title: 'Unsendable',
        description: 'Returns an AbortSignal, which cannot be passed back.',
      },
      {
        name: 'square',
        title: 'Square',
        description: 'Returns n squared: Infinity beyond 1.3e154.',
        input_schema: {
          type: 'object',
          properties: { n: { type: 'number' } },
          required: ['n'],
          additionalProperties: false,
        },
        output_schema: { type: 'number' },
      },
      { name: 'chatty', title: 'Chatty', description: 'Sends megabytes of progress, a toast and a title.' },
      { name: 'fail_huge', title: 'Fail huge', description: 'Throws an error of a megabyte of eyJa-.' },
      {
        name: 'remove',
        title: 'Remove everything',
        description: 'A destructive action the person always confirms.',
        confirm: 'always',
        destructive: true,
      },
    ],
    APP,
  );
  events.length = 0;
  platform = await startDevPlatform({
    dir,
    port: 0,
    mcpPersonTimeout: 1500,
    onEvent: (event) => void events.push(event),
  });
  delete process.env.SVC_STATE_DIR;
  page = await openLivePage(browser, platform);
});
test.afterEach(async () => {
  await page?.close();
  await platform?.close();
});

/** The values no agent may ever be sent: the signing secret, the MCP token, the page's control token. */
const secrets = () => [platform.signingSecret, platform.mcpToken!, platform.controlToken];

/** Throws when `text` holds a JWT-shaped value or one of the secrets. */
function expectClean(text: string) {
  expect(text).not.toMatch(/eyJ[\w-]*\.[\w-]*\./);
  for (const secret of secrets()) expect(text).not.toContain(secret);
}

const out = () => page.frameLocator('[data-testid=app-frame]').locator('#out');

const stdioClient = () => connectMcpStdio(dir, state, 'stdio-safety');

const transports = [
  ['HTTP 2025-era', () => connectMcp(platform)],
  ['HTTP 2026-07-28', () => connectMcp(platform, { versionNegotiation: { mode: 'auto' } })],
  ['stdio', stdioClient],
  // The bridge settles forwarded progress by a ping in the 2025 era only: a 2026-07-28 client refuses one.
  ['stdio 2026-07-28', () => connectMcpStdio(dir, state, 'stdio-safety', { mode: 'auto' })],
] as const;

for (const [name, connect] of transports) {
  test(`${name}: tokens and secrets are redacted from results, progress and errors, wherever they sit`, async () => {
    const client = await connect();
    const progress: string[] = [];
    const result = await client.callTool(
      { name: 'leak', arguments: { secrets: secrets() } },
      { onprogress: (p) => void progress.push(p.message ?? '') },
    );
    expect(result.isError, resultText(result)).toBeFalsy();
    const expected = {
      start: '[redacted] at the start',
      middle: 'a [redacted] b',
      end: 'ends with [redacted]',
      glued: 'x_[redacted]',
      nested: { deeper: [{ token: '[redacted]' }, ['y_[redacted]']] },
      '[redacted]': 'as a key',
      secrets: ['[redacted]', '[redacted]', '[redacted]'],
      inside: ['pre[redacted]post', 'pre[redacted]post', 'pre[redacted]post'],
      basic: 'upstream said 401 for Authorization: Basic [redacted]',
      doubled: ['Basic Basic [redacted]', 'Basic:[redacted]', 'Bearer Bearer [redacted]'],
      prose: 'a basic poll, Basic settings',
      split: [
        ['Basic', '[redacted]'],
        { Bearer: '[redacted]' },
        ['Basic', 'Premium'],
        ['basic', '[redacted]'],
        { basic: '[redacted]' },
      ],
      encodedBasic: ['Authorization=Basic%20[redacted]', 'Basic+[redacted]'],
      folded: 'Basic [redacted]\r\nthen a line of prose',
      foldedJson: '{"authorization":"Basic [redacted]"}',
      zeroWidth: 'Basic \u200b[redacted]',
      jwtBase64: 'Basic [redacted]',
      escapedDots: '[redacted]',
      wrapped: 'token=[redacted]',
      spaced: '[redacted]',
      encoded: '[redacted]',
      lookAlikeDots: Array(7).fill('[redacted]'),
      hiddenBreaks: Array(5).fill('[redacted]'),
      anyDots: Array(13).fill('[redacted]'),
      foldedAnywhere: Array(3).fill('[redacted]'),
    };
    expect(result.structuredContent).toEqual(expected);
    expect(JSON.parse(resultText(result))).toEqual(expected);
    expectClean(JSON.stringify(result));
    const told = progress.find((m) => m.includes('at the start'));
    expect(told).toBe('[redacted] at the start, glued x_[redacted], then [redacted] and [redacted] and [redacted]');

    // A credential the client's cut of a long message left half of is redacted all the same.
    const cut = resultText(await client.callTool({ name: 'fail_long', arguments: {} }));
    expect(cut).toMatch(/upstream said 401 for Basic \[redacted\]/);
    expect(cut).not.toMatch(/Basic [A-Za-z0-9+/]{4,}/);

    const failed = await client.callTool({ name: 'fail', arguments: { secrets: secrets() } });
    expect(failed.isError).toBe(true);
    // The app's own error, as it wrote it: no `svc.actions.invoke():` before it.
    expect(resultText(failed)).toBe(
      // Redacted once, by the app's client, then left as it is: "Bearer [redacted]]]" before.
      'ERR_POLL_CLOSED: the poll is closed for x_[redacted] and [redacted] [redacted] [redacted], Bearer [redacted] doubled [redacted]',
    );
    expectClean(JSON.stringify(failed));
    const folded = await client.callTool({ name: 'fail_folded', arguments: {} });
    expect(resultText(folded)).toMatch(/: failed with \[redacted\] and \[redacted\]\. /);
    expectClean(JSON.stringify(folded));

    // The page's MCP call list shows what the agent got: redacted, indented, with a copy button.
    await page.getByTestId('tab-Agent').click();
    const rows = page.getByTestId('mcp-call');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(0)).toContainText('failed with [redacted] and [redacted]');
    await expect(rows.nth(1)).toContainText('ERR_POLL_CLOSED: the poll is closed for x_[redacted]');
    await expect(rows.nth(2)).toContainText('upstream said 401 for Basic [redacted]');
    await expect(rows.nth(3)).toContainText('"glued": "x_[redacted]"');
    await expect(rows.nth(3).getByTestId('copy')).toBeVisible();
    expectClean((await page.getByTestId('agent-panel').textContent()) ?? '');
    await client.close();
  });
}

// A busy agent reads what the bridge wrote meanwhile in one chunk, and the MCP SDK's client dispatches the messages of
// a chunk in one loop: a notification a microtask later, a response at once (dropping the call's progress handler).
// The client here holds what it receives until the call ended in the page, then takes it all in one loop the same way.
test('stdio: the progress sent just before the result reaches a client that reads both at once', async () => {
  const client = await stdioClient();
  const transport = client.transport!;
  const deliver = transport.onmessage!;
  const held: Parameters<typeof deliver>[] = [];
  let holding = true;
  transport.onmessage = (...message) => (holding ? void held.push(message) : deliver(...message));
  const progress: string[] = [];
  const call = client.callTool(
    { name: 'leak', arguments: { secrets: secrets() } },
    { onprogress: (p) => void progress.push(p.message ?? '') },
  );
  await expect.poll(() => events.some((e) => e.type === 'mcp' && e.tool === 'leak')).toBe(true);
  // Time for the bridge to write the result after the progress, were it not to wait.
  await new Promise((resolve) => setTimeout(resolve, 300));
  holding = false;
  for (const message of held.splice(0)) deliver(...message);
  expect((await call).isError).toBeFalsy();
  expect(progress.find((m) => m.includes('at the start'))).toBe(
    '[redacted] at the start, glued x_[redacted], then [redacted] and [redacted] and [redacted]',
  );
  await client.close();
});

for (const [era, negotiation] of ERAS) {
  test(`${era}: a permission sheet raised during the call times out like a confirmation and closes; nothing is stored`, async () => {
    const client = await connectMcp(platform, { versionNegotiation: negotiation });
    const call = client.callTool({ name: 'ask_room', arguments: {} });
    await expect(page.getByTestId('permission-sheet')).toBeVisible();
    const result = await call;
    expect(resultText(result)).toMatch(/^ERR_TIMEOUT: the person did not answer in svc dev within 2 s/);
    await expect(page.getByTestId('permission-sheet')).toHaveCount(0);
    await expect(out()).toHaveText('rejected: ERR_CANCELLED');
    // The page's row says what the agent got, not the app's answer to the stop (ERR_CANCELLED).
    await page.getByTestId('tab-Agent').click();
    await expect(page.getByTestId('mcp-call').first().locator('pre.err')).toContainText(
      'ERR_TIMEOUT: the person did not answer in svc dev within 2 s',
    );
    await page.getByTestId('tab-Calls').click();
    expect(platform.state.grants.flatMap((g) => g.scopes)).not.toContain('svc.room.context');
    // Nothing was refused either: the next call asks again, and an answer in time is the result.
    const again = client.callTool({ name: 'ask_room', arguments: {} });
    await page.getByTestId('permission-allow').click();
    expect((await again).structuredContent).toEqual({ answer: 'granted' });
    await client.close();
  });

  test(`${era}: a client killed while the confirmation sheet is open closes the sheet; the action never runs`, async () => {
    const child = spawnClient(negotiation ? 'modern' : 'legacy', 'remove');
    try {
      await expect(page.getByTestId('action-sheet')).toContainText('Remove everything');
      // An action without arguments says so, not `{}`.
      await expect(page.getByTestId('action-sheet')).toContainText('No arguments.');
      child.kill('SIGKILL');
      await expect(page.getByTestId('action-sheet')).toHaveCount(0);
      await page.getByTestId('tab-Agent').click();
      await expect(page.getByTestId('mcp-call').first()).toContainText('ERR_CANCELLED');
      await expect(out()).toHaveText('idle');
    } finally {
      child.kill('SIGKILL');
    }
  });
}

for (const [era, negotiation] of ERAS)
  test(`${era}: a result JSON cannot carry (Infinity) is the handler's failure, not a result that breaks its outputSchema`, async () => {
    const client = await connectMcp(platform, { versionNegotiation: negotiation });
    expect((await client.callTool({ name: 'square', arguments: { n: 3 } })).structuredContent).toEqual({ result: 9 });
    const result = await client.callTool({ name: 'square', arguments: { n: 1e300 } });
    expect(resultText(result)).toMatch(
      /^ERR_ACTION_FAILED: the handler's output cannot be sent as JSON: \$ is not a finite number \(JSON has no Infinity or NaN, and would send null\): return a finite number, or null\./,
    );
    expect(result.structuredContent).toBeUndefined();
    await client.close();
  });

test("the app's megabyte texts are cut where the page shows them: it stays responsive, the agent gets the cut progress", async () => {
  const client = await connectMcp(platform);
  const progress: string[] = [];
  const result = await client.callTool(
    { name: 'chatty', arguments: {} },
    { onprogress: (p) => void progress.push(p.message ?? '') },
  );
  // The agent gets the result whole; the call's row on the page shows its first 10,000 characters (and the progress).
  expect(JSON.parse(resultText(result))).toEqual({ done: true, log: 'l'.repeat(1_000_000) });
  expect(progress).toEqual([
    `${'p'.repeat(1000)}… (1999000 more characters)`,
    expect.stringMatching(/^q{970}\[redacted\]… \(\d+ more characters\)$/),
  ]);
  await page.getByTestId('tab-Agent').click();
  const row = (await page.getByTestId('mcp-call').first().textContent()) ?? '';
  expect(row).toMatch(/… \(\d+ more characters\)/);
  expect(row.length).toBeLessThan(14_000);
  // The call log shows the first 10,000 characters of the progress call's params (two megabytes), its button copies
  // them whole; a filter reads them without laying them out.
  await page.getByTestId('tab-Calls').click();
  await page.getByTestId('call-filter').fill('pppp');
  await page
    .locator('[data-testid=call-row][data-method="actions.progress"]:not([hidden])')
    .first()
    .getByRole('button')
    .click();
  const params = (await page.getByTestId('call-params').first().textContent()) ?? '';
  expect(params).toMatch(/… \(\d+ more characters\)$/);
  expect(params.length).toBeLessThan(10_100);
  await page.getByTestId('call-filter').fill('');
  // The page laid the texts out and answers the next call (a megabyte line once held it for a minute).
  expect(resultText(await client.callTool({ name: 'square', arguments: { n: 3 } }))).toBe('{"result":9}');
  await expect(page.getByTestId('app-title')).toHaveText(`${'T'.repeat(200)}… (1999800 more characters)`);
  // An error of a megabyte of `eyJa-` (once searched whole for tokens: a minute): cut to 1,000 characters at once.
  const failed = await client.callTool({ name: 'fail_huge', arguments: {} });
  expect(failed.isError).toBe(true);
  expect(resultText(failed)).toMatch(
    /^ERR_ACTION_FAILED: action fail_huge failed: (?:eyJa-)+[eyJa]*\. The app's handler failed: the messenger page's console shows why\./,
  );
  expect(resultText(failed).length).toBeLessThan(1250);
  expect(resultText(await client.callTool({ name: 'square', arguments: { n: 4 } }))).toBe('{"result":16}');
  await client.close();
});

test('a result the app cannot pass back is a clear, non-retriable error, printed in the terminal', async () => {
  const client = await connectMcp(platform);
  const result = await client.callTool({ name: 'unsendable', arguments: {} });
  expect(resultText(result)).toBe(
    "ERR_ACTION_FAILED: action unsendable returned a result that cannot be passed back (a function, an AbortSignal, a DOM node or a class instance in it): return plain data, as its output_schema describes. The app's handler failed: the messenger page's console shows why. Change the arguments if they caused it, or fix the handler, then call again.",
  );
  expect(result._meta?.['dev.svc/error']).toEqual({ code: 'ERR_ACTION_FAILED', retriable: false });
  const told = events.find((e) => e.type === 'mcp' && e.tool === 'unsendable');
  expect(formatDevEvent(told!)).toMatch(
    /^\d\d:\d\d:\d\d {2}mcp {6}unsendable by svc-test: ERR_ACTION_FAILED: action unsendable returned/,
  );
  await client.close();
});

test('a 2025-era client killed while a permission sheet is open closes it', async () => {
  const child = spawnClient('legacy', 'ask_room');
  try {
    await expect(page.getByTestId('permission-sheet')).toBeVisible();
    child.kill('SIGKILL');
    await expect(page.getByTestId('permission-sheet')).toHaveCount(0);
    await expect(out()).toHaveText('rejected: ERR_CANCELLED');
  } finally {
    child.kill('SIGKILL');
  }
});

/** The official client in a process of its own, calling `tool` and waiting: killing it is a client that died. */
function spawnClient(era: 'legacy' | 'modern', tool: string): ChildProcess {
  const script = `
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
const client = new Client({ name: 'doomed', version: '0' }, { versionNegotiation: process.env.ERA === 'modern' ? { mode: 'auto' } : undefined });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.MCP_URL), { requestInit: { headers: { Authorization: 'Bearer ' + process.env.MCP_TOKEN } } }));
await client.callTool({ name: process.env.TOOL, arguments: {} }, { timeout: 600000 });
`;
  return spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, ERA: era, TOOL: tool, MCP_URL: platform.mcpUrl!, MCP_TOKEN: platform.mcpToken! },
  });
}
