// The agent bridge end to end: the official MCP client drives Team Polls (examples/polls, with its real backend)
// running in the messenger page in Chromium, over a real socket, in both protocol eras. The person's answers are
// clicks in the page; what the backend received is checked with the platform's own /agents/verify.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import type { PollsBackend } from '../../examples/polls/server/createPollsBackend';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { connectMcp, connectMcpStdio, openLivePage, resultText, writeMcpTestApp } from './mcpTestApp';
import { type PollsSession, startPollsSession } from './pollsSession';
import { writeDiscovery } from '../../src/dev/mcp/discoveryFile';
import { createServerClient } from '../../src/server';

const _root = resolve(import.meta.dirname, '../..');
const ERAS = [
  ['2025-era', undefined],
  ['2026-07-28', { mode: 'auto' as const }],
] as const;

type Progress = { progress: number; message?: string };

const connect = (platform: DevPlatform, era: (typeof ERAS)[number][1], name = 'svc-test') =>
  connectMcp(platform, { name, capabilities: { elicitation: { form: {} } }, versionNegotiation: era });
const text = resultText;

/**
 * How many rows `rows` has once they stopped changing: the MCP calls' rows render together, at most every 250 ms
 * while calls keep coming (ROWS_EVERY in src/dev/messenger/createAgentPanel.tsx), so a count read at once may still
 * miss the row of a call that has already ended. Read twice, further apart than that, until the two agree.
 */
async function settledCount(rows: Locator): Promise<number> {
  let count = await rows.count();
  for (let i = 0; i < 20; i++) {
    await new Promise((wait) => setTimeout(wait, 400));
    const now = await rows.count();
    if (now === count) return count;
    count = now;
  }
  throw new Error(`the rows kept changing for 8 s (last count ${count})`);
}

test.describe('Team Polls over MCP', () => {
  let session: PollsSession;
  let platform: DevPlatform;
  let backend: PollsBackend;
  let page: Page;
  const tokens: string[] = [];
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async ({ browser }) => {
    // A copy of the example with its own build and backend: the messenger's suites build theirs at the same time.
    session = await startPollsSession(browser as Browser, { viewport: { width: 1500, height: 860 } });
    ({ platform, backend, page } = session);
    // The person allowed the room scope before (the sheet itself is covered by the messenger's own suite).
    await platform.grant('svc.room.context');
    // What the app sends its backend: the bearer tokens, checked below with /agents/verify.
    page.on('request', (request) => {
      const auth = request.headers().authorization;
      if (request.url().startsWith(backend.origin) && auth?.startsWith('Bearer ')) tokens.push(auth.slice(7));
    });
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.getByTestId('room-general').click();
    await page.getByTestId('open-app').click();
  });
  test.afterAll(() => session?.close());

  test('svc-sdk mcp over stdio: the same tools/list, and a call under the stdio client name', async () => {
    // What svc dev writes for `svc mcp <dir>`, in a state folder of this test's own.
    const state = await mkdtemp(join(tmpdir(), 'svc-state-'));
    process.env.SVC_STATE_DIR = state;
    const { dir } = session;
    await writeDiscovery({ dir, url: platform.mcpUrl!, token: platform.mcpToken!, pid: process.pid });
    delete process.env.SVC_STATE_DIR;
    const stdio = await connectMcpStdio(dir, state, 'desktop-test');
    const http = await connect(platform, undefined);
    expect((await stdio.listTools()).tools).toEqual((await http.listTools()).tools);
    const seen: Progress[] = [];
    const result = await stdio.callTool(
      { name: 'create_poll', arguments: { question: 'Over stdio?', options: ['Yes', 'No'] } },
      { onprogress: (p) => void seen.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toHaveProperty('poll_id');
    expect(seen.map((p) => p.message)).toContain('Saving the poll');
    await expect(page.getByTestId('card').filter({ hasText: 'Over stdio?' })).toContainText('Yes · No');
    await page.getByTestId('tab-Agent').click();
    await expect(page.getByTestId('mcp-call').first()).toContainText('create_poll · MCP · desktop-test');
    await stdio.close();
    await http.close();
  });

  for (const [era, negotiation] of ERAS) {
    test(`${era}: tools/list is the manifest's actions, with schemas, all four hints and the confirm floor`, async () => {
      const client = await connect(platform, negotiation);
      const { tools } = await client.listTools();
      const actions = platform.manifest!.actions!;
      expect(tools.map((t) => t.name)).toEqual(actions.map((a) => a.name));
      for (const action of actions) {
        const tool = tools.find((t) => t.name === action.name)!;
        expect(tool.title).toBe(action.title);
        // An action the person confirms says so where models read: its description.
        const confirmed =
          action.confirm === 'always' || (action.confirm === 'if_destructive' && action.annotations.destructive);
        expect(tool.description).toBe(
          confirmed
            ? `${action.description} (The person confirms each call in the messenger before it runs.)`
            : action.description,
        );
        expect(tool.inputSchema).toEqual(action.input_schema);
        if (action.output_schema) expect(tool.outputSchema).toEqual(action.output_schema);
        expect(tool.annotations).toMatchObject({
          readOnlyHint: action.annotations.read_only,
          destructiveHint: action.annotations.destructive,
          idempotentHint: action.annotations.idempotent,
          openWorldHint: action.annotations.open_world,
        });
        expect(tool._meta?.['dev.svc/action']).toMatchObject({ confirm: action.confirm });
      }
      await client.close();
    });

    test(`${era}: create_poll posts the card in the room the app is open in, with progress and a delegated token`, async () => {
      const client = await connect(platform, negotiation);
      const seen: Progress[] = [];
      const question = `Lunch (${era})?`;
      tokens.length = 0;
      const result = await client.callTool(
        { name: 'create_poll', arguments: { question, options: ['Pizza', 'Sushi'] } },
        { onprogress: (p) => void seen.push(p), timeout: 120_000, resetTimeoutOnProgress: true },
      );
      expect(result.isError).toBeFalsy();
      const pollId = (result.structuredContent as { poll_id: string }).poll_id;
      expect(JSON.parse(text(result))).toEqual({ poll_id: pollId });
      await expect(page.getByTestId('card').filter({ hasText: question })).toContainText('Pizza · Sushi');
      expect(platform.cards('general').some((c) => c.kind === 'card' && c.card.title === question)).toBe(true);
      expect(seen.map((p) => p.message)).toContain('Saving the poll');
      expect(seen.map((p) => p.progress)).toEqual([...seen.keys()].map((i) => i + 1));
      // The backend recorded an agent (the token carried act.sub), and the platform vouches for that agent.
      expect([...backend.polls.values()].flat().find((p) => p.poll_id === pollId)?.created_by).toBe('agent');
      const server = createServerClient({
        baseUrl: platform.baseUrl,
        miniAppId: platform.miniAppId,
        secret: platform.signingSecret,
      });
      expect(tokens.length).toBeGreaterThan(0);
      const delegation = await server.verifyAgent(tokens.at(-1)!);
      expect(delegation.actor.agent_id).toBe('svc-test');
      // The agent panel lists the call; the call log marks the app's calls made for it.
      await page.getByTestId('tab-Agent').click();
      await expect(page.getByTestId('mcp-call').first()).toContainText('create_poll · MCP · svc-test');
      await page.getByTestId('tab-Calls').click();
      await expect(page.getByTestId('call-via').first()).toContainText('MCP · svc-test');
      await client.close();
    });

    test(`${era}: delete_poll waits for the person's confirmation: approve gives the result, refuse ERR_PERMISSION_DENIED`, async () => {
      const client = await connect(platform, negotiation);
      const created = await client.callTool({
        name: 'create_poll',
        arguments: { question: 'To delete?', options: ['a', 'b'] },
      });
      const pollId = (created.structuredContent as { poll_id: string }).poll_id;
      const seen: Progress[] = [];
      const approved = client.callTool(
        { name: 'delete_poll', arguments: { poll_id: pollId } },
        { onprogress: (p) => void seen.push(p), timeout: 120_000 },
      );
      await expect(page.getByTestId('action-sheet')).toContainText('Agent svc-test: \u2068Delete a poll\u2069?');
      // The app and what the action does, from its manifest: the person confirms knowing them.
      await expect(page.getByTestId('action-sheet')).toContainText(
        'Team Polls: \u2068Deletes the poll with the given poll_id (as returned by create_poll) and all of its votes.',
      );
      await expect.poll(() => seen.map((p) => p.message)).toContain('waiting for the person to answer in svc dev');
      await page.getByTestId('action-sheet-yes').click();
      const result = await approved;
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(text(result))).toEqual({ deleted: pollId });
      expect(result.structuredContent).toEqual({ deleted: pollId });

      const refused = client.callTool({ name: 'delete_poll', arguments: { poll_id: pollId } });
      await page.getByTestId('action-sheet-no').click();
      const refusal = await refused;
      expect(refusal.isError).toBe(true);
      // Said as the agent's tool call, without the host's function name (invokeAction('delete_poll'): ).
      expect(text(refusal)).toMatch(
        /^ERR_PERMISSION_DENIED: the person refused to confirm it; the handler did not run\./,
      );
      expect(refusal.structuredContent).toBeUndefined();
      expect(refusal._meta?.['dev.svc/error']).toEqual({ code: 'ERR_PERMISSION_DENIED', retriable: false });
      await client.close();
    });

    test(`${era}: input that breaks the schema never reaches the app or the person, and the page lists it refused`, async () => {
      const client = await connect(platform, negotiation);
      await page.getByTestId('tab-Agent').click();
      const rows = page.getByTestId('mcp-call');
      const before = await settledCount(rows);
      const polls = [...backend.polls.values()].flat().length;
      const result = await client.callTool({ name: 'create_poll', arguments: { question: 'x', extra: true } });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/^ERR_ACTION_INVALID_INPUT: .*\$\.question/);
      expect(result._meta?.['dev.svc/error']).toEqual({ code: 'ERR_ACTION_INVALID_INPUT', retriable: false });
      // The page lists the call with the error the agent got; the app never ran it, nor was the person asked.
      expect(await settledCount(rows)).toBe(before + 1);
      await expect(rows.first()).toContainText('ERR_ACTION_INVALID_INPUT');
      await expect(page.getByTestId('permission-sheet')).toHaveCount(0);
      expect([...backend.polls.values()].flat()).toHaveLength(polls);
      await client.close();
    });

    test(`${era}: a cancelled call closes the confirmation sheet and the handler never runs`, async () => {
      const client = await connect(platform, negotiation);
      const created = await client.callTool({
        name: 'create_poll',
        arguments: { question: 'Keep me?', options: ['a', 'b'] },
      });
      const pollId = (created.structuredContent as { poll_id: string }).poll_id;
      const abort = new AbortController();
      const call = client.callTool({ name: 'delete_poll', arguments: { poll_id: pollId } }, { signal: abort.signal });
      await expect(page.getByTestId('action-sheet')).toBeVisible();
      abort.abort();
      await expect(call).rejects.toThrow();
      await expect(page.getByTestId('action-sheet')).toHaveCount(0);
      await page.getByTestId('tab-Agent').click();
      await expect(page.getByTestId('mcp-call').first()).toContainText('ERR_CANCELLED');
      expect([...backend.polls.values()].flat().some((p) => p.poll_id === pollId)).toBe(true);
      // The next call runs: the cancelled one no longer holds the queue.
      const next = await client.callTool({
        name: 'create_poll',
        arguments: { question: 'After?', options: ['a', 'b'] },
      });
      expect(next.isError).toBeFalsy();
      await client.close();
    });
  }
});

// A handler that waits until its invocation is cancelled: the app's own view of actions.cancel.
const WAITER = `
const out = document.getElementById('out');
svc.actions.handle('wait_for_cancel', (_input, context) => new Promise((resolve) => {
  out.textContent = 'running';
  svc.actions.progress('started');
  context.signal.addEventListener('abort', () => { out.textContent = 'aborted'; resolve({ aborted: true }); });
}));
`;

test.describe("the handler's signal", () => {
  let platform: DevPlatform;
  let page: Page;
  test.afterEach(async () => {
    await page?.close();
    await platform?.close();
  });

  for (const [era, negotiation] of ERAS) {
    test(`${era}: cancelling the MCP call aborts context.signal in the app`, async ({ browser }) => {
      const dir = await writeMcpTestApp(
        [
          {
            name: 'wait_for_cancel',
            title: 'Wait',
            description: 'Waits until the call is cancelled, then reports that its signal aborted.',
          },
        ],
        WAITER,
      );
      platform = await startDevPlatform({ dir, port: 0 });
      // The page's channel is open: the platform relays calls to it from now on.
      page = await openLivePage(browser, platform);
      const client = await connect(platform, negotiation);
      const abort = new AbortController();
      let started!: () => void;
      const running = new Promise<void>((done) => (started = done));
      // No app open: the call opens it in the current room.
      const call = client.callTool(
        { name: 'wait_for_cancel', arguments: {} },
        { signal: abort.signal, onprogress: (p) => p.message === 'started' && started() },
      );
      // An error result instead of the handler's start fails here, with its text.
      await Promise.race([running, call.then((r) => Promise.reject(new Error(text(r))))]);
      const out = page.frameLocator('[data-testid=app-frame]').locator('#out');
      await expect(out).toHaveText('running');
      abort.abort();
      await expect(call).rejects.toThrow();
      await expect(out).toHaveText('aborted');
      await client.close();
    });
  }
});
