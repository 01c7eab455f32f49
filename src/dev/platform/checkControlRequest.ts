import { CONTROL_TOKEN_HEADER } from '../devContract';
import { sameToken } from '../sameToken';

/** What the control API accepts. @internal */
export interface ControlGuard {
  /** The per-launch token. */
  token: string;
  /** The messenger's origin, e.g. `http://127.0.0.1:4300`. */
  origin: string;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Checks one control API request: Host equal to the messenger's host (DNS rebinding), Origin equal to the
 * messenger's origin (no other page may drive the platform; a same-origin GET, which browsers send without Origin,
 * by its `Sec-Fetch-Site`), and the per-launch token compared in constant time. `method` is the request's.
 * Returns a refusal sentence (never containing the token), or undefined when the request may proceed.
 * @internal
 */
export function checkControlRequest(
  headers: Record<string, string | string[] | undefined>,
  guard: ControlGuard,
  queryToken?: string | null,
  method = 'GET',
): string | undefined {
  const expectedHost = new URL(guard.origin).host;
  if (first(headers.host) !== expectedHost)
    return `Host must be ${expectedHost}: open the URL svc dev printed (not another host name for it).`;
  // Browsers leave Origin out of same-origin GETs (fetch, EventSource) but always send Sec-Fetch-Site, which no page
  // can forge: a same-origin GET without Origin is the messenger page itself. A POST and a WebSocket's handshake
  // always carry Origin from a browser: without it, they are refused.
  const origin = first(headers.origin);
  const read = (method === 'GET' || method === 'HEAD') && headers.upgrade === undefined;
  const sameOrigin = read && origin === undefined && first(headers['sec-fetch-site']) === 'same-origin';
  if (origin !== guard.origin && !sameOrigin)
    return `Origin must be ${guard.origin}: only the messenger page may call the control API.`;
  if (!sameToken(first(headers[CONTROL_TOKEN_HEADER]) ?? queryToken, guard.token))
    return `${CONTROL_TOKEN_HEADER} is missing or wrong: send the launch token of the URL svc dev printed.`;
  return undefined;
}
