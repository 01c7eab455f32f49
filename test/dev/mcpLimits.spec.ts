// What MCP calls bring back and leave in the page, through the official MCP client and the messenger page in
// Chromium: a result up to the page channel's limit reaches the agent whole; a larger one is a clear error that says
// how large and what to do, and the page's channel stays open, so the next call runs; the agent panel keeps the latest
// calls only.
import { expect, type Page, test } from '@playwright/test';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { LIMITS } from '../../src/dev/limits';
import { connectMcp, openLivePage, resultText, writeMcpTestApp } from './mcpTestApp';

let platform: DevPlatform;
let page: Page;

test.beforeEach(async ({ browser }) => {
  const dir = await writeMcpTestApp(
    [
      {
        name: 'big',
        title: 'Big',
        description: 'Returns a text of the given length, to check the size a result may have.',
        input_schema: {
          type: 'object',
          properties: { length: { type: 'integer' } },
          required: ['length'],
          additionalProperties: false,
        },
      },
      {
        name: 'fail',
        title: 'Fail',
        description: 'Fails with an error code of the given length, to check the codes an agent is told.',
        input_schema: {
          type: 'object',
          properties: { length: { type: 'integer' } },
          required: ['length'],
          additionalProperties: false,
        },
      },
    ],
    "svc.actions.handle('big', ({ length }) => ({ text: 'x'.repeat(length) }));\n" +
      // An SvcError of the app's, its code of the given length (the script tag's brand; see docs/app.md).
      "svc.actions.handle('fail', ({ length }) => { throw Object.assign(new Error('the poll is closed'), { [Symbol.for('svc-sdk.error')]: 'SvcError', code: 'E'.repeat(length), retriable: false }); });",
  );
  platform = await startDevPlatform({ dir, port: 0 });
  page = await openLivePage(browser, platform);
});
test.afterEach(async () => {
  await page?.close();
  await platform?.close();
});

test('a result up to the channel limit arrives whole; a larger one is an error saying so, and the next call runs', async () => {
  const client = await connectMcp(platform);
  // Larger than the control API's 64 KiB body, well inside the channel's limit.
  const fits = LIMITS.channelMessage - 1000;
  const whole = await client.callTool({ name: 'big', arguments: { length: fits } });
  expect(whole.isError).toBeFalsy();
  expect((whole.structuredContent as { text: string }).text).toHaveLength(fits);

  const over = await client.callTool({ name: 'big', arguments: { length: LIMITS.channelMessage } });
  expect(over.isError).toBe(true);
  expect(resultText(over)).toMatch(
    new RegExp(
      `^ERR_INTERNAL: the result cannot be sent: it is \\d+ bytes as JSON, more than the ${LIMITS.channelMessage} svc dev relays to an agent: return less from the handler`,
    ),
  );
  expect(over._meta?.['dev.svc/error']).toEqual({ code: 'ERR_INTERNAL', retriable: false });

  const next = await client.callTool({ name: 'big', arguments: { length: 3 } });
  expect(next.structuredContent).toEqual({ text: 'xxx' });
  await expect(page.getByTestId('mcp-calls').getByTestId('mcp-call')).toHaveCount(3);
  await client.close();
});

test("an app's error code too long for svc dev, or empty, is still an answer: the agent is never left waiting", async () => {
  const client = await connectMcp(platform);
  const failed = async (length: number) => {
    const result = await client.callTool({ name: 'fail', arguments: { length } });
    expect(result.isError).toBe(true);
    return { text: resultText(result), meta: result._meta?.['dev.svc/error'] };
  };
  expect(await failed(LIMITS.id)).toEqual({
    text: `${'E'.repeat(LIMITS.id)}: the poll is closed`,
    meta: { code: 'E'.repeat(LIMITS.id), retriable: false },
  });
  // One character more was refused by svc dev, and the call waited until the agent gave up.
  const long = await failed(LIMITS.id + 1);
  expect(long.meta).toEqual({ code: 'ERR_ACTION_FAILED', retriable: false });
  expect(long.text).toContain(
    `ERR_ACTION_FAILED: the handler failed with an error code of ${LIMITS.id + 1} characters, more than the ${LIMITS.id} a code may have (so it is left out): the poll is closed. The app's handler failed`,
  );
  // Any answer svc dev cannot take is answered with its reason.
  const empty = await failed(0);
  expect(empty.meta).toEqual({ code: 'ERR_INTERNAL', retriable: false });
  expect(empty.text).toMatch(/^ERR_INTERNAL: svc dev could not take the app's answer: .*error\.code is missing/);
  await client.close();
});

test('the agent panel lists the latest 20 MCP calls and counts the earlier ones', async () => {
  const client = await connectMcp(platform);
  await page.getByTestId('tab-Agent').click();
  for (let length = 1; length <= 22; length++) await client.callTool({ name: 'big', arguments: { length } });
  const rows = page.getByTestId('mcp-calls').getByTestId('mcp-call');
  await expect(rows).toHaveCount(20);
  // Newest first: the last call (22 characters) at the top, the third at the bottom.
  await expect(rows.first()).toContainText('x'.repeat(22));
  await expect(rows.last()).toContainText('"xxx"');
  await expect(page.getByTestId('mcp-earlier')).toHaveText(
    '2 earlier MCP calls not shown: the terminal svc dev runs in printed each.',
  );
  await client.close();
});
