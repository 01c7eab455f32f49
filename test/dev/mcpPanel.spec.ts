// The messenger's Agent tab as a developer uses it with an MCP client: the endpoint with buttons that copy it and
// the Claude Code command, field descriptions shown whole, MCP results indented with a Copy button, and a reset
// that empties what the tab showed. Chromium, the official MCP client over a real socket.
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, test } from '@playwright/test';
import { startDevPlatform } from '../../src/dev';
import { connectMcp, writeMcpTestApp } from './mcpTestApp';
import { mcpServerName } from '../../src/dev/mcpServerName';

/** svc dev for the app in `dir`, and a page of the messenger showing its Agent tab. */
async function agentTab(browser: Browser, dir: string) {
  const platform = await startDevPlatform({ dir, port: 0, mcp: false });
  const page = await browser.newPage();
  await page.goto(platform.url);
  await page.locator('html[data-live]').waitFor({ state: 'attached' });
  await page.getByTestId('tab-Agent').click();
  return { platform, page };
}

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
      `claude mcp add --transport http ${mcpServerName(platform.manifest!)} ${platform.mcpUrl} --header "Authorization: Bearer ${platform.mcpToken}"`,
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
    // A result long enough to scroll in its box is a Tab stop with a name, in every engine (WebKit makes none itself).
    await expect(row.locator('pre.ok')).not.toHaveAttribute('tabindex');
    await client.callTool({ name: 'echo', arguments: { text: 'a long line of text '.repeat(100) } });
    const long = page.getByTestId('mcp-call').first().locator('pre.ok');
    await expect(long).toHaveAttribute('tabindex', '0');
    await expect(long).toHaveAccessibleName('Result');
    const { violations } = await new AxeBuilder({ page }).include('[data-testid=agent-panel]').analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
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

test('many actions: a filter, cards folded to a line that open to their form, and what an invocation shows', async ({
  browser,
}) => {
  const names = Array.from({ length: 30 }, (_, i) => `record_${i}`);
  const dir = await writeMcpTestApp(
    names.map((name, i) => ({
      name,
      title: `Record ${i}`,
      description:
        i === 7 ? 'Finds the invoice of a customer by its number.' : `Reads the record numbered ${i} from the list.`,
      input_schema: {
        type: 'object',
        properties: { note: { type: 'string', description: 'Anything.' } },
        additionalProperties: false,
      },
    })),
    `for (const name of ${JSON.stringify(names)}) svc.actions.handle(name, ({ note }) => ({ name, note }));`,
  );
  const platform = await startDevPlatform({ dir, port: 0, mcp: false });
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(platform.url);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.getByTestId('tab-Agent').click();
    await expect(page.getByTestId('action-count')).toHaveText('30 actions');
    // Folded: a line each, no form until the card opens.
    await expect(page.getByTestId('action-record_3').locator('summary')).toContainText('Record 3');
    await expect(page.getByTestId('invoke-agent-record_3')).toHaveCount(0);
    // Each folded line holds its heading: heading navigation goes through every action.
    await expect(page.getByTestId('agent-panel').getByRole('heading', { level: 3 })).toHaveCount(30);
    // The filter reads names, titles and descriptions.
    await page.getByTestId('action-filter').fill('record_2');
    await expect(page.getByTestId('action-count')).toHaveText('11 of 30 actions');
    await page.getByTestId('action-filter').fill('INVOICE');
    await expect(page.getByTestId('action-count')).toHaveText('1 of 30 actions');
    await expect(page.locator('[data-testid^="action-record_"]')).toHaveCount(1);
    const card = page.getByTestId('action-record_7');
    await card.locator('summary').click();
    await card.getByTestId('input-record_7-note').fill('from a folded card');
    await card.getByTestId('invoke-agent-record_7').click();
    await expect(page.getByTestId('result-record_7')).toContainText('"note": "from a folded card"');
    // Kept while the tab is not shown: the filter, the open card and its result.
    await page.getByTestId('tab-Calls').click();
    await page.getByTestId('tab-Agent').click();
    await expect(page.getByTestId('action-filter')).toHaveValue('INVOICE');
    await expect(page.getByTestId('result-record_7')).toContainText('from a folded card');
    const { violations } = await new AxeBuilder({ page }).include('[data-testid=agent-panel]').analyze();
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  } finally {
    await context.close();
    await platform.close();
  }
});

test('a nested property gets a JSON box of its own, started from its required fields; the flat ones keep theirs', async ({
  browser,
}) => {
  const dir = await writeMcpTestApp(
    [
      {
        name: 'create_task',
        title: 'Create a task',
        description: 'Creates a task with its owner and the people assigned to it.',
        input_schema: {
          type: 'object',
          properties: {
            title: { type: 'string' },
            metadata: {
              type: 'object',
              properties: { owner: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
              required: ['owner'],
            },
            assignees: {
              type: 'array',
              items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            },
          },
          required: ['title', 'metadata'],
          additionalProperties: false,
        },
      },
    ],
    "svc.actions.handle('create_task', (input) => input);",
  );
  const { platform, page } = await agentTab(browser, dir);
  try {
    const action = page.getByTestId('action-create_task');
    await expect(action.getByLabel('title (required)', { exact: true })).toHaveAttribute('type', 'text');
    const metadata = action.getByTestId('input-create_task-metadata');
    await expect(metadata).toHaveValue('{"owner":""}');
    await expect(action.locator('#input-create_task-metadata-hint')).toHaveText('object of owner*, tags (* required)');
    await expect(action.getByTestId('input-create_task-assignees')).toHaveValue('');
    await expect(action.locator('#input-create_task-assignees-hint')).toHaveText('array of name* (* required)');
    await action.getByLabel('title (required)', { exact: true }).fill('Ship it');
    await metadata.fill('{"owner": "ann", "tags": ["q4"]}');
    await action.getByTestId('invoke-agent-create_task').click();
    await expect(page.getByTestId('result-create_task')).toContainText('"owner": "ann"');
    // An optional box left empty is left out; one that does not parse is refused, naming it.
    await expect(page.getByTestId('result-create_task')).not.toContainText('assignees');
    await action.getByTestId('input-create_task-assignees').fill('[{"name": ');
    await action.getByTestId('invoke-agent-create_task').click();
    await expect(page.getByTestId('result-create_task')).toContainText('assignees is not JSON: ');
  } finally {
    await page.close();
    await platform.close();
  }
});

test('an optional enum starts unset and keeps its values typed; a failed action shows what an agent is told', async ({
  browser,
}) => {
  const dir = await writeMcpTestApp(
    [
      {
        name: 'add_note',
        title: 'Add a note',
        description: 'Adds a note to the list, tagged or not.',
        input_schema: {
          type: 'object',
          properties: {
            text: { type: 'string' },
            tag: { type: 'string', enum: ['done', 'todo'] },
            priority: { enum: [1, 2, 3] },
          },
          required: ['text', 'priority'],
          additionalProperties: false,
        },
      },
      { name: 'summarise', title: 'Summarise', description: 'Summarises the notes of the list.' },
    ],
    "svc.actions.handle('add_note', (input) => ({ ...input, tagged: 'tag' in input }));\n" +
      "svc.actions.handle('summarise', () => { throw new Error('there are no notes to summarise yet; add some first'); });",
  );
  const { platform, page } = await agentTab(browser, dir);
  try {
    const tag = page.getByTestId('input-add_note-tag');
    await expect(tag).toHaveValue('');
    await expect(tag.locator('option').first()).toHaveText('(not set)');
    // A required enum has no unset choice.
    await expect(page.getByTestId('input-add_note-priority').locator('option')).toHaveText(['1', '2', '3']);
    await page.getByTestId('input-add_note-text').fill('standup');
    await page.getByTestId('input-add_note-priority').selectOption({ label: '2' });
    await page.getByTestId('invoke-agent-add_note').click();
    const result = page.getByTestId('result-add_note');
    await expect(result).toContainText('"tagged": false');
    await expect(result).toContainText('"priority": 2');
    await tag.selectOption({ label: 'todo' });
    await page.getByTestId('invoke-agent-add_note').click();
    await expect(result).toContainText('"tag": "todo"');
    // The app's own sentence, as MCP tells it: no function name of the host's side before it.
    await page.getByTestId('invoke-agent-summarise').click();
    const failed = page.getByTestId('result-summarise');
    await expect(failed).toContainText(
      '"message": "action summarise failed: there are no notes to summarise yet; add some first"',
    );
    await expect(failed).not.toContainText('svc.actions.invoke()');
  } finally {
    await page.close();
    await platform.close();
  }
});

test('a call svc dev refuses before the app (an unknown tool, arguments that do not fit) is listed with what the agent got', async ({
  browser,
}) => {
  const dir = await writeMcpTestApp(
    [
      {
        name: 'add',
        title: 'Add',
        description: 'Adds two numbers and answers their sum.',
        input_schema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
      },
    ],
    "svc.actions.handle('add', ({ a, b }) => ({ sum: a + b }));",
  );
  const platform = await startDevPlatform({ dir, port: 0 });
  const page = await browser.newPage();
  try {
    await page.goto(platform.url);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.getByTestId('tab-Agent').click();
    const client = await connectMcp(platform);
    const token = `eyJhbGciOiJFUzI1NiJ9.${'eyJzdWIiOiJ4In0'}.${'s'.repeat(40)}`;
    const invalid = await client.callTool({ name: 'add', arguments: { a: token, b: 2 } });
    expect(invalid.isError).toBe(true);
    await client.callTool({ name: 'nope', arguments: { q: 1 } }).catch((error: unknown) => error);
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });

    const rows = page.getByTestId('mcp-call');
    await expect(rows).toHaveCount(3);
    // Newest first: the call that ran, the unknown tool, the arguments that did not fit.
    await expect(rows.nth(0)).toContainText('{\n  "sum": 3\n}');
    await expect(rows.nth(1)).toContainText('nope · MCP');
    await expect(rows.nth(1).locator('pre.err')).toContainText('Tool nope not found');
    await expect(rows.nth(2)).toContainText('add · MCP');
    await expect(rows.nth(2).locator('pre.err')).toContainText('ERR_ACTION_INVALID_INPUT: the arguments do not fit');
    // The arguments as shown: the token in them redacted.
    await expect(rows.nth(2).locator('pre.note')).toContainText('"b": 2');
    await expect(rows.nth(2)).not.toContainText(token);
    await client.close();
  } finally {
    await page.close();
    await platform.close();
  }
});
