import type * as z from 'zod';
import type { Manifest } from '../../manifest';
import { CONTROL_BODIES } from '../controlSchemas';
import { checkBody } from './jsonBody';
import type { ControlHandlers } from './controlActions';
import type { IdentityProvider } from './createIdentityProvider';
import { type SigningSecrets, validSecrets } from './signingSecrets';
import type { ControlRoutes, StateRoute, DevState, DevTimelineEntry } from '../devContract';
import { tokenExchangeForm } from '../tokenExchangeForm';
import type { BlockedRequest } from './serve/createPackageServer';

/** What {@link platformHandle} wraps. @internal */
export interface HandleParts {
  origin: string;
  controlToken: string;
  realm: string;
  miniAppId: string;
  audience: string;
  state: DevState;
  secrets: SigningSecrets;
  actions: Pick<ControlHandlers, StateRoute>;
  changed(): Promise<void>;
  idp: IdentityProvider;
  appUrl: string;
  appOrigin: string;
  manifest: Manifest | undefined;
  blocked: BlockedRequest[];
  mcpUrl: string | undefined;
  mcpToken: string | undefined;
  mcpConfigs: string | undefined;
  close(): Promise<void>;
}

/** Options of {@link DevPlatformHandle}'s `appToken`. @public */
export interface AppTokenOptions {
  /** The person (platform user id); default the current one (`alice` at first launch). */
  userId?: string;
  /** Scopes to ask for (manifest `auth.scopes`); the answer holds those the person granted. */
  scopes?: string[];
  /** An agent acting for the person: the token then carries `act.sub`. */
  agentId?: string;
}

/**
 * The handle `startDevPlatform` returns: the addresses a backend needs, and calls that act as the person or the
 * administrator, in-process, with the same effects as the messenger page's buttons (webhooks included).
 */
export function platformHandle(p: HandleParts) {
  // The same body check as the route's: a call from a test or a script is refused with the same sentence.
  const run = async <K extends StateRoute>(route: K, body: ControlRoutes[K]['request']) => {
    const schema: z.ZodType | undefined = Object.hasOwn(CONTROL_BODIES, route)
      ? CONTROL_BODIES[route as keyof typeof CONTROL_BODIES]
      : undefined;
    const checked = (schema ? checkBody(schema, body) : body) as ControlRoutes[K]['request'];
    const result = await (p.actions[route] as (body: ControlRoutes[K]['request']) => unknown)(checked);
    await p.changed();
    return result;
  };
  const entries = (roomId: string | undefined, kind: DevTimelineEntry['kind']) =>
    p.state.rooms
      .filter((r) => roomId === undefined || r.id === roomId)
      .flatMap((r) => r.timeline.filter((e) => e.kind === kind));
  return {
    /** The messenger page, with its launch token: open it in a browser. */
    url: `${p.origin}/?token=${p.controlToken}`,
    /** The platform's origin (`http://127.0.0.1:<port>`): identity provider, server API, control API. */
    origin: p.origin,
    /** The server API base, ending in `/v1` (`createServerClient({ baseUrl })`). */
    baseUrl: `${p.origin}/v1`,
    /** `{auth_url}`: the issuer is `${authUrl}/realms/${realm}`. */
    authUrl: p.origin,
    realm: p.realm,
    /** The current webhook and server API signing secret (a rotation makes a new one). */
    get signingSecret() {
      return p.secrets.current;
    },
    /**
     * The secrets that verify now, newest first: during a rotation's overlap the previous one too. A backend that
     * verifies webhooks with these (and signs with the first) follows a rotation.
     */
    get signingSecrets(): string[] {
      return validSecrets(p.secrets);
    },
    miniAppId: p.miniAppId,
    /** The audience exchanged tokens carry. */
    audience: p.audience,
    /** The rooms, at least one end-to-end encrypted and one not. */
    get rooms() {
      return p.state.rooms.map((r) => ({ room_id: r.id, name: r.name, is_encrypted: r.is_encrypted }));
    },
    /** The whole state, live (what the state file keeps). */
    state: p.state,
    /** The per-launch token of the control API (`x-svc-dev-token`). */
    controlToken: p.controlToken,
    /** The URL the messenger's iframe loads, and its origin. */
    appUrl: p.appUrl,
    appOrigin: p.appOrigin,
    /** The validated manifest, when started with `dir` (the edited one, once a valid edit of manifest.json is served). */
    get manifest() {
      return p.manifest;
    },
    /** Requests the app's policies blocked, each with what to change. */
    blocked: p.blocked,
    /** The MCP endpoint (`<origin>/mcp`) serving the manifest's actions as tools; undefined with `mcp: false`. */
    mcpUrl: p.mcpUrl,
    /** Its bearer token (`Authorization: Bearer <mcpToken>`), separate from the control token. */
    mcpToken: p.mcpToken,
    /**
     * The lines to print for the developer: the MCP endpoint and ready-to-paste client configurations (they carry
     * the MCP token: for the developer's terminal only). `svc dev`, `npm start` and the starter's `npm run dev` print
     * them; undefined with `mcp: false` or without `dir`.
     */
    mcpConfigs: p.mcpConfigs,
    /** Installs the app for a person (`installation.created`). */
    install: (userId?: string) => run('POST /__svc/install', { user_id: userId }),
    /** Uninstalls it (`installation.deleted`, by the person or an administrator). */
    uninstall: (userId?: string, removedBy: 'user' | 'admin' = 'user') =>
      run('POST /__svc/uninstall', { user_id: userId, removed_by: removedBy }),
    /** Grants a manifest scope (e.g. `svc.notifications`) as the person would (`scope.granted`). */
    grant: (scope: string, userId?: string) => run('POST /__svc/grant', { scope, user_id: userId }),
    /** Revokes it (`scope.revoked`); the token exchange then leaves it out. */
    revoke: (scope: string, userId?: string) => run('POST /__svc/revoke', { scope, user_id: userId }),
    /** Removes the person from the tenant (`user.deprovisioned`); the exchange then refuses them. */
    deprovision: (userId?: string) => run('POST /__svc/deprovision', { user_id: userId }),
    /** Revokes the running version (`app.revoked`); the server API then answers 409. */
    revokeVersion: (reason?: string) => run('POST /__svc/revoke-version', { reason }),
    /** Starts a secret rotation: a new secret signs; the old one still verifies for `overlapSeconds`. */
    rotateSecret: (overlapSeconds?: number) => run('POST /__svc/rotate-secret', { overlap_seconds: overlapSeconds }),
    /** Sends again every failed delivery not sent again yet, oldest first (each a new delivery with `resend_of`). */
    resendFailed: () => run('POST /__svc/deliveries/resend-failed', {}),
    /** Back to the first launch's state: people, rooms, the app installed for Alice and Carol, nothing else. */
    reset: () => run('POST /__svc/reset', {}),
    /** Cards the backend posted, of one room or all. */
    cards: (roomId?: string) => entries(roomId, 'card'),
    /** Messages people sent (through the app's `svc.message.send`), of one room or all. */
    messages: (roomId?: string) => entries(roomId, 'message'),
    /** Notifications the backend sent, of one person or all. */
    notifications: (userId?: string) =>
      p.state.notifications.filter((n) => userId === undefined || n.user_id === userId),
    /** Webhook deliveries with their attempts. */
    deliveries: () => p.state.deliveries,
    /**
     * The app's token for a person, as `svc.auth.getToken()` would get it: a real RFC 8693 exchange at the identity
     * provider, signed with the realm's key, which `createTokenVerifier` accepts.
     */
    async appToken(options: AppTokenOptions = {}): Promise<string> {
      const userId = options.userId ?? p.state.settings.current_user_id;
      const form = tokenExchangeForm({
        subjectToken: await p.idp.subjectToken(userId),
        actorToken: options.agentId ? await p.idp.actorToken(options.agentId) : undefined,
        audience: p.audience,
        scopes: options.scopes ?? [],
      });
      const answer = await p.idp.exchange(form);
      const body = answer.body as { access_token?: string; error_description?: string };
      if (answer.status !== 200 || !body.access_token)
        throw new Error(`the exchange refused ${userId}: ${body.error_description ?? answer.status}`);
      return body.access_token;
    },
    /** Stops every server and waits for the state file. */
    close: p.close,
  };
}

/** The handle of a running platform. @public */
export type DevPlatformHandle = ReturnType<typeof platformHandle>;
