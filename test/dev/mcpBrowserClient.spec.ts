// A browser-based MCP client calling svc dev's /mcp from a page of the origin `--mcp-origin` allows, in Chromium:
// the official MCP client, bundled for the browser, in both protocol eras. CORS lets that origin, exactly, read the
// answers (its preflight carries no token); a page of any other origin is refused, and so is its preflight.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { writeMcpTestApp } from './mcpTestApp';

declare global {
  interface Window {
    listTools(url: string, token: string, era: 'auto' | undefined): Promise<string[]>;
  }
}

/** The page's client: the official one, as a browser-based agent would bundle it. */
const CLIENT = `
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
window.listTools = async (url, token, era) => {
  const client = new Client({ name: 'browser-agent', version: '0' }, era ? { versionNegotiation: { mode: era } } : {});
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer ' + token } } }),
  );
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((tool) => tool.name);
};`;

/** A site on its own loopback port serving a page that loads `script`. */
async function site(script: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script type="module" src="/client.js"></script>');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test.describe('a browser-based MCP client (--mcp-origin)', () => {
  let platform: DevPlatform;
  let agent: Awaited<ReturnType<typeof site>>;
  let other: Awaited<ReturnType<typeof site>>;

  test.beforeAll(async () => {
    const bundled = await build({
      stdin: { contents: CLIENT, resolveDir: import.meta.dirname, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
    });
    const script = bundled.outputFiles[0]!.text;
    agent = await site(script);
    other = await site(script);
    const dir = await writeMcpTestApp(
      [{ name: 'echo_text', title: 'Echo', description: 'Answers with the text it was given, unchanged.' }],
      'svc.actions.handle("echo_text", (input) => input);',
    );
    platform = await startDevPlatform({ dir, port: 0, mcpOrigins: [agent.origin] });
  });
  test.afterAll(async () => {
    await platform?.close();
    for (const { server } of [agent, other]) server?.closeAllConnections();
    await Promise.all([agent, other].map(({ server }) => new Promise((done) => server.close(done))));
  });

  for (const era of [undefined, 'auto'] as const)
    test(`lists the tools from the allowed origin, and not from another (${era ?? '2025-era'})`, async ({ page }) => {
      await page.goto(`${agent.origin}/`);
      await page.waitForFunction(() => 'listTools' in window);
      const args = [platform.mcpUrl!, platform.mcpToken!, era] as const;
      expect(await page.evaluate(([url, token, e]) => window.listTools(url, token, e), args)).toEqual(['echo_text']);
      await page.goto(`${other.origin}/`);
      await page.waitForFunction(() => 'listTools' in window);
      const refused = await page.evaluate(
        ([url, token, e]) =>
          window.listTools(url, token, e).then(String, (error: Error) => `refused: ${error.message}`),
        args,
      );
      expect(refused).toMatch(/^refused: /);
    });

  test('answers the allowed origin exactly (never *), and refuses the preflight of another', async () => {
    const preflight = (origin: string) =>
      fetch(platform.mcpUrl!, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const allowed = await preflight(agent.origin);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(agent.origin);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(allowed.headers.get('vary')).toBe('Origin');
    const refused = await preflight(other.origin);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    // Without the token, the allowed origin learns that it is refused, and why, but nothing else.
    const untokened = await fetch(platform.mcpUrl!, {
      method: 'POST',
      headers: { origin: agent.origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(untokened.status).toBe(401);
    expect(untokened.headers.get('access-control-allow-origin')).toBe(agent.origin);
  });
});
