// The Team Polls backend: a small Node server that trusts only what svc-sdk/server verified. It checks the app's
// token on every request, posts poll cards through the signed server API (and explains the encrypted-room case),
// checks the installation before notifying, and handles the platform's webhooks once each, deleting a person's
// data when they leave their organisation.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMemoryIdempotencyStore,
  createServerClient,
  createTokenVerifier,
  createWebhookHandler,
  isSvcApiError,
  type ServerClient,
  type WebhookHandler,
  type WebhookHandlers,
} from 'svc-sdk/server';

/** Where the backend finds the platform: what `svc dev --backend-env` writes, or `startDevPlatform`'s handle. */
export interface PollsBackendOptions {
  apiBase: string;
  authUrl: string;
  realm: string;
  audience: string;
  miniAppId: string;
  signingSecret: string;
  /**
   * The secrets that verify now, newest first, read on every request: during a rotation the platform signs with the
   * new secret while the previous one still verifies, so the backend follows without a restart. Default
   * `[signingSecret]`. In production, read them from your secret manager.
   */
  signingSecrets?: () => readonly string[];
  /** The app's exact origin, the only one allowed to call this backend from a browser (CORS). */
  appOrigin: string;
  port?: number;
}

/** A poll, kept per person (app_user_id) in memory. */
export interface Poll {
  poll_id: string;
  question: string;
  options: string[];
  room_id?: string;
  created_by: 'agent' | 'user';
  /** Each voter's option, by app_user_id: one vote per person, changed by voting again. */
  votes: Record<string, string>;
}

/** What a person sees of a poll: the counts, and their own vote. */
const view = (poll: Poll, voter: string) => ({
  poll_id: poll.poll_id,
  question: poll.question,
  options: poll.options,
  counts: poll.options.map((o) => Object.values(poll.votes).filter((v) => v === o).length),
  mine: poll.votes[voter],
});
const DELETED =
  'This poll was deleted; its card stays in the room (a card cannot be taken back), but it takes no votes.';

const ENCRYPTED_ROOM =
  'This room is end-to-end encrypted, so the Polls server cannot post into it: post the poll from your own client instead (Polls asks you to confirm).';

/** Starts the backend on 127.0.0.1; resolves once it listens. */
export async function createPollsBackend(options: PollsBackendOptions) {
  const polls = new Map<string, Poll[]>();
  const byId = new Map<string, Poll>();
  const reminders = new Set<string>();
  const verifier = createTokenVerifier({ authUrl: options.authUrl, realm: options.realm, audience: options.audience });
  const secrets = options.signingSecrets ?? (() => [options.signingSecret]);
  const on: WebhookHandlers = {
    // The person left their organisation: their data goes, whatever else happens.
    'user.deprovisioned': (event) => {
      polls.delete(event.app_user_id);
      reminders.delete(event.app_user_id);
    },
    'installation.deleted': (event) => void reminders.delete(event.app_user_id),
    'scope.revoked': (event) => {
      if (event.scope === 'svc.notifications') reminders.delete(event.app_user_id);
    },
  };
  // One record of processed deliveries across rotations: a retry signed with the new secret is still a duplicate.
  const store = createMemoryIdempotencyStore();
  type Clients = { key: string; api: ServerClient; webhooks: WebhookHandler };
  let current: Clients | undefined;
  // The client and the webhook handler for the secrets of now: rebuilt only when a rotation changed them.
  const clients = (): Clients => {
    const list = secrets();
    const key = list.join(' ');
    if (current?.key !== key)
      current = {
        key,
        api: createServerClient({ baseUrl: options.apiBase, miniAppId: options.miniAppId, secret: list[0] ?? '' }),
        webhooks: createWebhookHandler({ secrets: list, on, store }),
      };
    return current;
  };

  const cors = { 'access-control-allow-origin': options.appOrigin, vary: 'origin' };
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...cors }).end(JSON.stringify(body));
  };
  const readJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const value = text ? JSON.parse(text) : {};
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('the body must be a JSON object');
    return value;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://backend').pathname;
    if (path === '/svc/webhooks') return clients().webhooks.node(req, res);
    if (req.method === 'OPTIONS')
      return void res
        .writeHead(204, {
          ...cors,
          'access-control-allow-methods': 'GET, POST, DELETE',
          'access-control-allow-headers': 'authorization, content-type',
        })
        .end();
    // Every app request carries a fresh token: who it is comes from the verified `sub`, never from the body.
    const identity = await verifier.verifyRequest(req.headers).catch(() => undefined);
    if (!identity) return send(res, 401, { error: 'a valid token is required (svc.auth.getToken())' });
    const mine = polls.get(identity.sub) ?? [];
    polls.set(identity.sub, mine);

    if (req.method === 'POST' && path === '/polls') {
      const body = await readJson(req);
      const question = typeof body.question === 'string' ? body.question.trim() : '';
      const options = Array.isArray(body.options)
        ? body.options.filter((o): o is string => typeof o === 'string' && o !== '')
        : [];
      if (!question || options.length < 2)
        return send(res, 400, { error: 'question and at least two options are required' });
      const poll: Poll = {
        poll_id: randomUUID(),
        question,
        options,
        created_by: identity.actor ? 'agent' : 'user',
        votes: {},
      };
      mine.push(poll);
      byId.set(poll.poll_id, poll);
      const room_id = typeof body.room_id === 'string' ? body.room_id : undefined;
      if (!room_id) return send(res, 201, { poll_id: poll.poll_id, posted: false });
      poll.room_id = room_id;
      try {
        const card = {
          title: question,
          body: options.join(' · '),
          actions: [{ label: 'Vote', deep_link: `/poll?id=${poll.poll_id}` }],
        };
        await clients().api.postCard(room_id, { app_user_id: identity.sub, card });
        return send(res, 201, { poll_id: poll.poll_id, posted: true });
      } catch (error) {
        if (isSvcApiError(error) && error.problem === 'room-encrypted')
          return send(res, 201, { poll_id: poll.poll_id, posted: false, explanation: ENCRYPTED_ROOM });
        throw error;
      }
    }
    const id = /^\/polls\/([\w-]+)(\/reminders|\/votes)?$/.exec(path);
    if (req.method === 'DELETE' && id && !id[2]) {
      polls.set(
        identity.sub,
        mine.filter((p) => p.poll_id !== id[1]),
      );
      // Only its creator deletes a poll.
      if (mine.some((p) => p.poll_id === id[1])) byId.delete(id[1]!);
      return send(res, 200, { deleted: id[1] });
    }
    // Anyone in the room votes on a poll, whoever created it: by its id, from the card's deep link.
    if (id && (req.method === 'GET' || id[2] === '/votes') && id[2] !== '/reminders') {
      const poll = byId.get(id[1]!);
      if (!poll) return send(res, 404, { error: DELETED });
      if (req.method === 'GET' && !id[2]) return send(res, 200, view(poll, identity.sub));
      if (req.method === 'POST') {
        const { option } = await readJson(req);
        if (typeof option !== 'string' || !poll.options.includes(option))
          return send(res, 400, { error: `option must be one of: ${poll.options.join(', ')}` });
        poll.votes[identity.sub] = option;
        return send(res, 200, view(poll, identity.sub));
      }
    }
    if (req.method === 'POST' && id?.[2] === '/reminders') {
      // A notification lands only for an installed app; check first rather than fail later.
      const installation = await clients().api.getInstallation(identity.sub);
      if (!installation.installed) return send(res, 409, { error: 'Polls is not installed for you any more.' });
      reminders.add(identity.sub);
      await clients().api.notify(identity.sub, {
        title: 'Reminders on',
        body: 'We will tell you when the poll closes.',
        deep_link: `/poll?id=${id[1]}`,
      });
      return send(res, 200, { reminders: true });
    }
    if (req.method === 'GET' && path === '/polls') return send(res, 200, { polls: mine });
    send(res, 404, { error: `no route ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      // Never the token or the secret: the error's own message only.
      if (!res.headersSent) send(res, 500, { error: isSvcApiError(error) ? error.message : 'internal error' });
    });
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(options.port ?? 0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    webhookUrl: `${origin}/svc/webhooks`,
    /** The polls of each person, for tests. */
    polls,
    reminders,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A running backend. */
export type PollsBackend = Awaited<ReturnType<typeof createPollsBackend>>;
