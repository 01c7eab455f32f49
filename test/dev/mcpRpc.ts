// One raw JSON-RPC POST to svc dev's MCP endpoint, for tests that need what an SDK client would not send (a reused
// id, a malformed member) or the HTTP answer itself.
import type { DevPlatform } from '../../src/dev';

/**
 * One JSON-RPC message to the endpoint over a real socket (2025-era headers), with its session when given: an object
 * (its jsonrpc and id added), or the body as it is (text or exact bytes). Resolves once the answer (a stream too) ends.
 */
export async function rpc(platform: DevPlatform, message: object | string | Uint8Array, session?: string | null) {
  const res = await fetch(platform.mcpUrl!, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${platform.mcpToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
    },
    body:
      typeof message === 'string'
        ? message
        : message instanceof Uint8Array
          ? new Uint8Array(message)
          : JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
  });
  return { status: res.status, session: res.headers.get('mcp-session-id'), body: await res.text() };
}
