import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { mcpServerName } from '../mcpServerName';

/**
 * The `SVC_STATE_DIR` this svc dev runs with, for the bridge's environment: it finds the platform by the discovery
 * file there, and Claude Desktop starts it without the terminal's environment, in a folder of its own (so a relative
 * one is written whole).
 */
const stateDir = () =>
  process.env.SVC_STATE_DIR ? { env: { SVC_STATE_DIR: resolve(process.env.SVC_STATE_DIR) } } : {};

/**
 * The command that starts `svc mcp <dir>` from anywhere: Claude Desktop starts its servers in a folder of its own,
 * where `npx svc-sdk` would not find the project's svc-sdk (and would ask the registry for another). So: this Node
 * and the svc CLI of the svc-sdk the app folder resolves, by absolute paths; `npx` when none resolves. For a package
 * run with a state file, that file too: its store's record says which key the id is bound to after a rotation.
 */
function stdioCommand(
  dir: string,
  statePath?: string,
): { command: string; args: string[]; env?: Record<string, string> } {
  const args = ['mcp', dir, ...(statePath && dir.endsWith('.swbn') ? ['--state', statePath] : [])];
  try {
    const pkg = createRequire(join(dir, 'package.json')).resolve('svc-sdk/package.json');
    return { command: process.execPath, args: [join(dirname(pkg), 'dist', 'cli.js'), ...args], ...stateDir() };
  } catch {
    return { command: 'npx', args: ['svc-sdk', ...args], ...stateDir() };
  }
}

/**
 * What `svc dev` prints below the messenger's URL: the MCP endpoint and ready-to-paste configurations for Claude
 * Code, VS Code (`.vscode/mcp.json`), the MCP Inspector's CLI, and Claude Desktop (through `svc mcp`, over stdio).
 * @param app - the app's folder (or its package file) as `dir`, and its manifest's name and id, which name the server.
 * @param statePath - the state file svc dev runs with, if any (absolute).
 * @internal
 */
export function mcpConfigs(
  url: string,
  token: string,
  app: { dir: string; name: string; id: string },
  statePath?: string,
): string {
  const header = `Authorization: Bearer ${token}`;
  const name = mcpServerName(app);
  const vscode = JSON.stringify({
    servers: { [name]: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } },
  });
  const desktop = JSON.stringify({ mcpServers: { [name]: stdioCommand(app.dir, statePath) } });
  return [
    `MCP: ${url} (header "${header}"; keep the messenger page open: the tools run there)`,
    `  Claude Code:    claude mcp add --transport http ${name} ${url} --header "${header}"`,
    `  VS Code:        .vscode/mcp.json ${vscode}`,
    `  MCP Inspector:  npx --yes @modelcontextprotocol/inspector@2 --cli --server-url ${url} --transport http --header "${header}" --method tools/list --stored-auth-only`,
    `  Claude Desktop: claude_desktop_config.json ${desktop}`,
  ].join('\n');
}
