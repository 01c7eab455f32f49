/**
 * What `svc dev` prints below the messenger's URL: the MCP endpoint and ready-to-paste configurations for Claude
 * Code, VS Code (`.vscode/mcp.json`), the MCP Inspector's CLI, and Claude Desktop (through `svc mcp`, over stdio).
 * @internal
 */
export function mcpConfigs(url: string, token: string, dir: string): string {
  const header = `Authorization: Bearer ${token}`;
  const vscode = JSON.stringify({
    servers: { svc: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } },
  });
  const desktop = JSON.stringify({ mcpServers: { svc: { command: 'npx', args: ['svc-sdk', 'mcp', dir] } } });
  return [
    `MCP: ${url} (header "${header}"; keep the messenger page open: the tools run there)`,
    `  Claude Code:    claude mcp add --transport http svc ${url} --header "${header}"`,
    `  VS Code:        .vscode/mcp.json ${vscode}`,
    `  MCP Inspector:  npx @modelcontextprotocol/inspector --cli --server-url ${url} --transport http --header "${header}" --method tools/list`,
    `  Claude Desktop: claude_desktop_config.json ${desktop}`,
  ].join('\n');
}
