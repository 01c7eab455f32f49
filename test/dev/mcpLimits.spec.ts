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
    ],
    "svc.actions.handle('big', ({ length }) => ({ text: 'x'.repeat(length) }));",
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
