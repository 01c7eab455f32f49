// The messenger's Agent tab as a developer uses it with an MCP client: the endpoint with buttons that copy it and
// the Claude Code command, field descriptions shown whole, MCP results indented with a Copy button, and a reset
// that empties what the tab showed. Chromium, the official MCP client over a real socket.
import { expect, test } from '@playwright/test';
import { startDevPlatform } from '../../src/dev';
import { connectMcp, writeMcpTestApp } from './mcpTestApp';

const LONG =
  'The text to send back, exactly as given: spaces, punctuation and capitals are kept, and nothing is trimmed.';

test('the Agent tab shows the endpoint, whole descriptions, indented MCP results with Copy, and Reset empties it', async ({
  browser,
}) => {
  const dir = await writeMcpTestApp(
    [
      {
        name: 'echo',
        title: 'Echo',
        description: 'Answers with the text it was given.',
        input_schema: {
          type: 'object',
          properties: { text: { type: 'string', description: LONG } },
          additionalProperties: false,
        },
      },
    ],
    "svc.actions.handle('echo', ({ text }) => ({ echoed: text, length: (text ?? '').length }));",
  );
  const platform = await startDevPlatform({ dir, port: 0 });
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  try {
    await page.goto(platform.url);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.getByTestId('tab-Agent').click();
    const endpoint = page.getByTestId('mcp-endpoint');
    await expect(endpoint).toContainText(platform.mcpUrl!);
    // The token is copied, never shown.
    await expect(endpoint).not.toContainText(platform.mcpToken!);
    await endpoint.getByRole('button', { name: 'Copy the MCP endpoint' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(platform.mcpUrl);
    await endpoint.getByRole('button', { name: 'Copy for Claude Code: its claude mcp add command' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `claude mcp add --transport http svc ${platform.mcpUrl} --header "Authorization: Bearer ${platform.mcpToken}"`,
    );

    // The field's description is shown whole, not as a placeholder cut at the input's width.
    const action = page.getByTestId('action-echo');
    await expect(action.getByTestId('input-echo-text')).not.toHaveAttribute('placeholder');
    await expect(action.locator('.hint')).toHaveText(LONG);

    const client = await connectMcp(platform);
    await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    const row = page.getByTestId('mcp-call');
    await expect(row.locator('pre.ok')).toHaveText('{\n  "echoed": "hi",\n  "length": 2\n}');
    await row.getByTestId('copy').click();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({ echoed: 'hi', length: 2 });
    await action.getByTestId('input-echo-text').fill('from the panel');
    await action.getByTestId('invoke-agent-echo').click();
    await expect(page.getByTestId('result-echo')).toContainText('"echoed": "from the panel"');

    await page.getByTestId('tab-Settings').click();
    await page.getByTestId('reset').click();
    await page.getByTestId('reset-yes').click();
    await page.getByTestId('tab-Agent').click();
    await expect(page.getByTestId('mcp-call')).toHaveCount(0);
    await expect(page.getByTestId('mcp-calls')).toContainText('No MCP call yet');
    await expect(page.getByTestId('result-echo')).toBeEmpty();
    await client.close();
  } finally {
    await context.close();
    await platform.close();
  }
});
