import { localhostAllowedHostnames, validateHostHeader } from '@modelcontextprotocol/server';
import { sameToken } from '../sameToken';

/** What the MCP endpoint accepts. @internal */
export interface McpGuard {
  /** The bearer token (256 bits, base64url), separate from the page's control token. */
  token: string;
  /** Origins a browser-based MCP client may call from, exact (scheme, host and port); none by default. */
  allowedOrigins: readonly string[];
}

/** A refusal: the HTTP status and a sentence for the client (never the token). @internal */
export interface McpRefusal {
  status: 401 | 403;
  message: string;
}

// The SDK's DNS-rebinding allowlist: 127.0.0.1, localhost and [::1], any port.
const LOOPBACK_HOSTS = localhostAllowedHostnames();

/**
 * Checks one request to `/mcp`: a loopback `Host` (DNS rebinding; the SDK's host-header validation), no `Origin`
 * unless it is exactly an allowed one (the app's own origin is `http://localhost:<port>`, and the SDK's host-name-only
 * Origin check would let the app call its own actions as an agent), then the bearer token compared in constant time;
 * with `preflight`, a browser's CORS preflight, which carries no token: the Host and an allowed Origin.
 * @internal
 */
export function checkMcpRequest(
  headers: { get(name: string): string | null },
  guard: McpGuard,
  { preflight = false } = {},
): McpRefusal | undefined {
  if (!validateHostHeader(headers.get('host'), LOOPBACK_HOSTS).ok)
    return { status: 403, message: 'Host must be 127.0.0.1, localhost or [::1]: connect to the URL svc dev printed.' };
  const origin = headers.get('origin');
  if (origin !== null && !guard.allowedOrigins.includes(origin))
    return {
      status: 403,
      message: `Origin ${origin} may not call this MCP endpoint; MCP clients send no Origin (a browser client's origin must be allowed with --mcp-origin).`,
    };
  // A CORS preflight carries no token, and asks only whether its origin may send the request that follows.
  if (preflight) return origin === null ? { status: 403, message: 'A preflight names its Origin.' } : undefined;
  // The scheme is case-insensitive (RFC 9110): `bearer` and `BEARER` are the same.
  const header = headers.get('authorization');
  const auth = /^Bearer +([A-Za-z0-9_-]+)$/i.exec(header ?? '');
  if (!sameToken(auth?.[1], guard.token))
    return {
      status: 401,
      // A token sent but not this run's is most often an earlier run's, baked into a client's configuration.
      message: auth
        ? "the token is not this run's MCP token: svc dev makes a new one at each start. Put the token it printed at this start in your client (Claude Code: claude mcp add again; the stdio form, svc mcp <dir>, follows restarts by itself)."
        : header
          ? 'send the token as "Authorization: Bearer <token>", with the MCP token svc dev printed.'
          : 'send the header "Authorization: Bearer <token>" with the MCP token svc dev printed.',
    };
  return undefined;
}
