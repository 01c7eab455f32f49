import { SvcError } from '../../protocol/SvcError';
import { manifestFacts } from '../../manifest/manifestFacts';
import { type StoredPatch, withPatches } from '../withPatches';
import { hc } from 'hono/client';
import type { ControlApp } from '../platform/createControlApp';
import {
  CHANNEL_PATH,
  CHANNEL_PING,
  type ChannelReply,
  type ChannelRequest,
  CONTROL_PREFIX,
  CONTROL_TOKEN_HEADER,
  type ControlRoute,
  type ControlRoutes,
  type DevConfig,
  type DevState,
  type DevStreamEvents,
  type McpRoute,
} from '../devContract';
import { tokenExchangeForm } from '../tokenExchangeForm';
import { STORE_PATH } from '../storePath';
import { LIMITS } from '../limits';

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
  const res = await reach(() => callOf(route)(body === undefined ? undefined : { json: body }));
  // The one refusal of a page's own request: its token is of a run before svc dev restarted. No retry from this page
  // can work (an app's effect hears so), the URL svc dev printed does.
  if (res.status === 403)
    throw new SvcError(
      'ERR_HOST_UNREACHABLE',
      'svc dev was restarted: this page belongs to its previous run. Open the URL svc dev printed (it carries the new launch token).',
      false,
    );
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.detail ?? `${route} failed (${res.status})`);
  return answer;
}

/**
 * A request to svc dev. Not reaching it (it stopped, or restarts) is said as the platform unreachable, retriable: an
 * effect's plain failure reached the app as an `ERR_INTERNAL` that named no cause.
 */
async function reach(request: () => Promise<Response>): Promise<Response> {
  try {
    return await request();
  } catch {
    throw new SvcError(
      'ERR_HOST_UNREACHABLE',
      'svc dev is not reachable (it stopped, or restarts): try again once it runs.',
      true,
    );
  }
}

/**
 * Uploads a signed package to the local store (the settings' upload): resolves to the accepted version's record (with
 * a `warning` when svc dev could not do all that follows, such as rewriting the backend's env file), or rejects with
 * the store's problem detail (which names both versions when the version is not higher).
 */
export async function uploadPackage(
  bytes: ArrayBuffer,
): Promise<{ version: string; key_id: string; warning?: string }> {
  const res = await fetch(STORE_PATH, {
    method: 'POST',
    headers: { [CONTROL_TOKEN_HEADER]: token, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  const answer = await res.json().catch(() => ({}));
  // The problem's type goes with its sentence: the same bytes again are no refusal of a new version.
  if (res.status !== 201)
    throw Object.assign(new Error(answer.detail ?? `the store answered ${res.status}`), { type: answer.type });
  return answer;
}

/**
 * Tells the terminal what only the page knows; best effort (the page works without a terminal). Sent after the
 * current task: a launch's line can wait, the app's frame (which the same task puts in the page) should not.
 */
export const pageEvent = (event: ControlRoutes['POST /__svc/page-event']['request']) =>
  setTimeout(() => void client.__svc['page-event'].$post({ json: event }).catch(() => {}));

/** The configuration the page starts from. */
export const loadConfig = () => control('GET /__svc/config');

/**
 * The channel's connection: `open`; `stalled` while svc dev, still connected, does not answer (paused at a
 * breakpoint, or stopped with SIGSTOP); `retrying` while svc dev is away (the page reconnects by itself); `closed`
 * when it came back without this page's launch token (a restart makes a new one).
 */
export type Connection = 'open' | 'stalled' | 'retrying' | 'closed';

/** How often the page probes svc dev on its open channel, and how long a probe may go unanswered. */
const PROBE_MS = 3000;

/** svc dev refused a body the page sent on its channel; the message is its sentence saying why. */
export class AnswerRefused extends Error {}

/** The open channel, and the page's requests on it waiting for their reply, by number. */
let channel: WebSocket | undefined;
const waiting = new Map<number, { resolve(answer: unknown): void; reject(error: Error): void }>();
let numbered = 0;

/**
 * Sends the page's answer to a relayed MCP call on its channel and resolves with the platform's reply (what the agent
 * got); rejects with the platform's sentence ({@link AnswerRefused}), or when the channel is not open or closes first
 * (the platform then ends the call itself: the page that ran it is gone), or with a RangeError when the answer is
 * larger than the channel takes ({@link LIMITS}`.channelMessage`).
 */
export function answerRelayed<R extends McpRoute>(
  route: R,
  body: ControlRoutes[R]['request'],
): Promise<ControlRoutes[R]['response']> {
  return new Promise((resolve, reject) => {
    if (channel?.readyState !== WebSocket.OPEN)
      return reject(new Error(`${route}: the page's channel to svc dev is not open.`));
    const n = ++numbered;
    const message = JSON.stringify({ n, route, body } satisfies ChannelRequest<R>);
    // The platform closes the channel on a larger message: say why here instead, and keep the channel. (A UTF-16
    // code unit is at most 3 bytes of UTF-8: a short message needs no encoding to know it fits.)
    const bytes = message.length * 3 <= LIMITS.channelMessage ? 0 : new TextEncoder().encode(message).length;
    if (bytes > LIMITS.channelMessage)
      return reject(
        new RangeError(
          `it is ${bytes} bytes as JSON, more than the ${LIMITS.channelMessage} svc dev relays to an agent: return less from the handler (a page of it, or a link to the rest).`,
        ),
      );
    waiting.set(n, { resolve: resolve as (answer: unknown) => void, reject });
    channel.send(message);
  });
}

/** How long the page waits before connecting again while svc dev is away. */
const RETRY_MS = 1000;

/**
 * Probes svc dev on the open channel every {@link PROBE_MS}: a reply coming late, or not at all, says svc dev stopped
 * answering though its socket stays open (nothing else would: the page would be silent while its requests wait);
 * anything heard from it after that says it answers again. `heard` takes each message, and is true for the probe's
 * reply (nobody else's).
 */
function probeChannel(socket: WebSocket, onConnection: (connection: Connection) => void) {
  let probe: { n: number; at: number } | undefined;
  let stalled = false;
  const timer = setInterval(() => {
    if (socket.readyState !== WebSocket.OPEN) return;
    if (!probe) {
      probe = { n: ++numbered, at: performance.now() };
      socket.send(JSON.stringify({ n: probe.n, route: CHANNEL_PING }));
    } else if (!stalled && performance.now() - probe.at >= PROBE_MS) {
      stalled = true;
      onConnection('stalled');
    }
  }, PROBE_MS);
  return {
    heard(message: { event: string } | ChannelReply): boolean {
      if (stalled) onConnection('open');
      stalled = false;
      if (!('re' in message) || message.re !== probe?.n) return false;
      probe = undefined;
      return true;
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Follows the platform on the page's channel (a WebSocket): the state (whole on connecting, unless the page has its
 * revision already: `from`, then the last one taken), then each change's patches, blocked requests, the connection,
 * `more` events by type (their parsed data), and the replies to {@link answerRelayed}. Connects again while svc dev is
 * away; stops when it answers that this page's token is stale. `run` is the start of svc dev that served the page
 * ({@link DevConfig}'s): after a restart on the same `--state`, which keeps the token, the channel says `restarted`.
 */
export function follow(
  onState: (state: DevState) => void,
  onBlocked: (request: DevStreamEvents['blocked']['request']) => void,
  onConnection: (connection: Connection) => void = () => {},
  more: { [K in keyof DevStreamEvents]?: (data: DevStreamEvents[K]) => void } = {},
  from?: DevState,
  run?: string,
) {
  // The whole state on connecting (unless it is the revision the page has), then each change as its patches:
  // applied to the last state, or, after a gap in the revisions (a page that was away), the whole state fetched again.
  let current = from;
  const take = (state: DevState) => {
    current = state;
    onState(state);
  };
  const events: Record<string, (data: never) => void> = {
    ...more,
    state: (data: { state: DevState }) => take(data.state),
    patch: ({ revision, p }: { revision: number; p: StoredPatch[] }) => {
      if (!current || revision <= (current.revision ?? 0)) return;
      if (revision === (current.revision ?? 0) + 1) return take(withPatches(current, p));
      void control('GET /__svc/state').then(take, () => {});
    },
    blocked: (data: DevStreamEvents['blocked']) => onBlocked(data.request),
  };
  let stopped = false;
  const connect = () => {
    const has = current ? `&revision=${current.revision ?? 0}` : '';
    // The start of svc dev that served this page: another one (a restart on the same --state) says so first.
    const of = run ? `&run=${encodeURIComponent(run)}` : '';
    const socket = new WebSocket(
      `${location.origin.replace(/^http/, 'ws')}${CHANNEL_PATH}?token=${encodeURIComponent(token)}${has}${of}`,
    );
    channel = socket;
    const probe = probeChannel(socket, onConnection);
    socket.onopen = () => {
      // Set while the channel is open: the platform relays MCP calls to a page only then.
      document.documentElement.dataset.live = 'true';
      onConnection('open');
    };
    socket.onmessage = (e) => {
      const message = JSON.parse(e.data as string) as { event: string; data: never } | ChannelReply;
      if (probe.heard(message)) return;
      if ('event' in message) return events[message.event]?.(message.data);
      const request = waiting.get(message.re);
      waiting.delete(message.re);
      if ('error' in message) request?.reject(new AnswerRefused(message.error));
      else request?.resolve(message.answer);
    };
    socket.onclose = () => {
      probe.stop();
      delete document.documentElement.dataset.live;
      for (const request of waiting.values()) request.reject(new Error('the channel to svc dev closed.'));
      waiting.clear();
      if (stopped) return;
      // A refused upgrade and a server that is away close alike: a request tells them apart (403: this page's token
      // belongs to an earlier run, so reconnecting cannot help).
      void fetch(`${CONTROL_PREFIX}/config`, { headers: { [CONTROL_TOKEN_HEADER]: token } }).then(
        (res) => (res.status === 403 ? onConnection('closed') : retry()),
        retry,
      );
    };
  };
  const retry = () => {
    onConnection('retrying');
    setTimeout(() => stopped || connect(), RETRY_MS);
  };
  connect();
  return () => {
    stopped = true;
    channel?.close();
  };
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
  const res = await reach(() =>
    fetch(`${config.authUrl}/realms/${config.realm}/protocol/openid-connect/token`, { method: 'POST', body: form }),
  );
  const answer = await res.json();
  // A refusal about the person or the app (not installed, left the tenant, version revoked) is final: retrying
  // cannot help, so the app gets its own code with the reason rather than a retriable ERR_INTERNAL.
  if (res.status === 400 && (answer.error === 'invalid_grant' || answer.error === 'invalid_target'))
    throw new SvcError('ERR_TOKEN_REFUSED', `no token: ${answer.error_description}`, false, 'auth.getToken');
  if (!res.ok) throw new Error(`the identity provider refused: ${answer.error_description ?? answer.error}`);
  return { access_token: answer.access_token as string, expires_in: answer.expires_in as number };
}
