import { SvcError } from '../../protocol/SvcError';
import { manifestFacts } from '../../manifest/manifestFacts';
import { type StoredPatch, withPatches } from '../withPatches';
import { hc } from 'hono/client';
import type { ControlApp } from '../platform/createControlApp';
import {
  CONTROL_PREFIX,
  CONTROL_TOKEN_HEADER,
  type ControlRoute,
  type ControlRoutes,
  type DevConfig,
  type DevState,
  type DevStreamEvents,
} from '../devContract';
import { tokenExchangeForm } from '../tokenExchangeForm';
import { STORE_PATH } from '../storePath';

/** The page's launch token, from its own URL (the platform printed it). */
const token = new URLSearchParams(location.search).get('token') ?? '';

/**
 * The control API's typed client: its routes, bodies and answers are the platform's control app's own types
 * (src/dev/platform/createControlApp.ts), on this page's origin, each request carrying the launch token.
 */
const client = hc<ControlApp>('', { headers: { [CONTROL_TOKEN_HEADER]: token } });

/** The client's call of a route: `POST /__svc/notifications/read` is `client.__svc.notifications.read.$post`. */
function callOf(route: ControlRoute): (args?: { json: unknown }) => Promise<Response> {
  const [method, path] = route.split(' ') as [string, string];
  let at = client as unknown as Record<string, unknown>;
  for (const part of path.split('/').filter(Boolean)) at = at[part] as Record<string, unknown>;
  return at[`$${method.toLowerCase()}`] as (args?: { json: unknown }) => Promise<Response>;
}

/**
 * Calls a route of the control API with its body (none for a GET) and resolves with its answer, as the contract
 * types them; rejects with the problem's detail (which names the field).
 */
export async function control<R extends ControlRoute>(
  route: R,
  ...[body]: ControlRoutes[R]['request'] extends undefined ? [] : [ControlRoutes[R]['request']]
): Promise<ControlRoutes[R]['response']> {
  const res = await callOf(route)(body === undefined ? undefined : { json: body });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.detail ?? `${route} failed (${res.status})`);
  return answer;
}

/**
 * Uploads a signed package to the local store (the settings' upload): resolves to the accepted version's record, or
 * rejects with the store's problem detail (which names both versions when the version is not higher).
 */
export async function uploadPackage(bytes: ArrayBuffer): Promise<{ version: string; key_id: string }> {
  const res = await fetch(STORE_PATH, {
    method: 'POST',
    headers: { [CONTROL_TOKEN_HEADER]: token, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  const answer = await res.json().catch(() => ({}));
  if (res.status !== 201) throw new Error(answer.detail ?? `the store answered ${res.status}`);
  return answer;
}

/** Tells the terminal what only the page knows; best effort (the page works without a terminal). */
export const pageEvent = (event: ControlRoutes['POST /__svc/page-event']['request']) =>
  void client.__svc['page-event'].$post({ json: event }).catch(() => {});

/** The configuration the page starts from. */
export const loadConfig = () => control('GET /__svc/config');

/**
 * The stream's connection: `open`; `retrying` while svc dev is away (the browser reconnects by itself); `closed`
 * when it came back without this page's launch token (a restart makes a new one).
 */
export type Connection = 'open' | 'retrying' | 'closed';

/**
 * Follows the platform's event stream: the state (whole on connecting, then each change's patches), blocked requests,
 * the connection, and `more` events by type (their parsed data).
 */
export function follow(
  onState: (state: DevState) => void,
  onBlocked: (request: DevStreamEvents['blocked']['request']) => void,
  onConnection: (connection: Connection) => void = () => {},
  more: { [K in keyof DevStreamEvents]?: (data: DevStreamEvents[K]) => void } = {},
) {
  const source = new EventSource(`${CONTROL_PREFIX}/events?token=${encodeURIComponent(token)}`);
  // The whole state on connecting, then each change as its patches: applied to the last state, or, after a gap in
  // the revisions (a page that was away), the whole state fetched again.
  let current: DevState | undefined;
  const take = (state: DevState) => {
    current = state;
    onState(state);
  };
  source.addEventListener('state', (e) => take(JSON.parse((e as MessageEvent).data).state));
  source.addEventListener('patch', (e) => {
    const { revision, p } = JSON.parse((e as MessageEvent).data) as { revision: number; p: StoredPatch[] };
    if (!current || revision <= (current.revision ?? 0)) return;
    if (revision === (current.revision ?? 0) + 1) return take(withPatches(current, p));
    void control('GET /__svc/state').then(take, () => {});
  });
  source.addEventListener('blocked', (e) => onBlocked(JSON.parse((e as MessageEvent).data).request));
  source.addEventListener('open', () => {
    // Set while the stream is open: the platform relays MCP calls to a page only then.
    document.documentElement.dataset.live = 'true';
    onConnection('open');
  });
  source.addEventListener('error', () => {
    delete document.documentElement.dataset.live;
    onConnection(source.readyState === EventSource.CLOSED ? 'closed' : 'retrying');
  });
  for (const [type, on] of Object.entries(more) as [string, (data: unknown) => void][])
    source.addEventListener(type, (e) => on(JSON.parse((e as MessageEvent).data)));
  return () => source.close();
}

/** The app's token for the current person: a real RFC 8693 exchange at the platform's identity provider. */
export async function exchangeToken(
  config: DevConfig,
  userId: string,
  agentId: string | undefined,
  scopes: readonly string[],
) {
  const minted = await control('POST /__svc/subject-token', {
    user_id: userId,
    agent_id: agentId,
  });
  const form = tokenExchangeForm({
    subjectToken: minted.subject_token,
    actorToken: minted.actor_token,
    audience: manifestFacts(config.manifest).audience,
    scopes,
  });
  const res = await fetch(`${config.authUrl}/realms/${config.realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: form,
  });
  const answer = await res.json();
  // A refusal about the person or the app (not installed, left the tenant, version revoked) is final: retrying
  // cannot help, so the app gets its own code with the reason rather than a retriable ERR_INTERNAL.
  if (res.status === 400 && (answer.error === 'invalid_grant' || answer.error === 'invalid_target'))
    throw new SvcError('ERR_TOKEN_REFUSED', `no token: ${answer.error_description}`, false, 'auth.getToken');
  if (!res.ok) throw new Error(`the identity provider refused: ${answer.error_description ?? answer.error}`);
  return { access_token: answer.access_token as string, expires_in: answer.expires_in as number };
}
