import { createMemoryStorage } from '../../host/rules/createMemoryStorage';
import type { JsonValue } from '../../protocol/shape';
import { methods } from '../../protocol/methods';
import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import type { CONTROL_BODIES } from '../controlSchemas';
import type { ControlRoute, ControlRoutes, DevState, DevUser, StateRoute } from '../devContract';
import type { WebhookEventName } from '../../server/events';
import { WEBHOOK_SCHEMAS } from '../../server/webhookSchemas';
import { initialState } from './initialState';
import type { Manifest } from '../../manifest';
import { manifestFacts } from '../../manifest/manifestFacts';
import type { IdentityProvider } from './createIdentityProvider';
import type { WebhookSender } from './createWebhookSender';
import { rotateSecrets, type SigningSecrets } from './signingSecrets';
import { failedNotSentAgain } from '../failedNotSentAgain';
import { FORBIDDEN } from '../withPatches';

/** What the control actions act on. */
export interface ControlContext {
  state: DevState;
  miniAppId: string;
  idp: IdentityProvider;
  webhooks: WebhookSender | undefined;
  /** The signing secrets (the previous one stays valid during a rotation's overlap). */
  secrets: SigningSecrets;
  /**
   * Told after a rotation, so the platform saves the secrets and rewrites the backend's env file; `endedOverlap`
   * when it cut short the overlap of the rotation before (the secret two generations back stopped verifying).
   */
  rotated?(endedOverlap: boolean): void | Promise<void>;
  /** The manifest served now, whose `permissions` are the scopes a person can grant; none without a manifest. */
  manifest?(): Manifest | undefined;
}

/** What a route's action returns: its answer, or nothing when it changed the state (the answer is then the state). */
type ControlAnswer<K extends ControlRoute> = ControlRoutes[K]['response'] extends DevState
  ? // biome-ignore lint/suspicious/noConfusingVoidType: an action that changed the state returns nothing
    DevState | undefined | void
  : ControlRoutes[K]['response'];

/**
 * One control route's action: takes the route's body (checked against its schema by the route, or by the platform's
 * handle, before it runs) and answers, or changes the state; an Error's message (naming the field) refuses it.
 */
export type ControlHandler<K extends ControlRoute> = (
  body: ActionBody<K>,
) => ControlAnswer<K> | Promise<ControlAnswer<K>>;

/** The body an action gets: its route's schema's output (defaults filled in), or the contract's body. */
type ActionBody<K extends ControlRoute> = K extends keyof typeof CONTROL_BODIES
  ? z.output<(typeof CONTROL_BODIES)[K]>
  : ControlRoutes[K]['request'];

/** An action for every control route. */
export type ControlHandlers = { [K in ControlRoute]: ControlHandler<K> };

/** The helpers the actions share: the state, webhook events, and the person a body names (or the current one). */
function actionHelpers(ctx: ControlContext) {
  const { state } = ctx;
  // An event about a person names their tenant; one about the app (a revoked version), the first tenant's.
  const emit = (event: string, fields: Record<string, unknown>) => {
    if (!ctx.webhooks) return;
    const subject = state.users.find((u) => u.app_user_id === fields.app_user_id);
    const payload = {
      event,
      occurred_at: new Date().toISOString(),
      mini_app_id: ctx.miniAppId,
      tenant_id: subject?.tenant_id ?? state.tenants[0]?.id ?? '',
      ...fields,
    };
    ctx.webhooks.send(event, payload);
  };
  const userOf = (id?: string): DevUser => {
    const user = state.users.find((u) => u.id === (id ?? state.settings.current_user_id));
    if (!user) throw new Error(`user_id ${id} is unknown: send one of ${state.users.map((u) => u.id).join(', ')}.`);
    return user;
  };
  // After user.deprovisioned the backend deletes the person's data, and the server API no longer knows them: an
  // event about them afterwards would make a backend keep data of someone who left.
  const memberOf = (id?: string): DevUser => {
    const user = userOf(id);
    if (user.deprovisioned)
      throw new Error(
        `user_id ${user.id} was removed from the tenant (user.deprovisioned): no install, uninstall, grant or revoke of theirs reaches the backend any more. Reset the state to have them back.`,
      );
    return user;
  };
  const setScope = (userId: string, scope: string, on: boolean) => {
    if (!scope) throw new Error('scope is missing: send a manifest scope name such as svc.notifications.');
    // A person is only ever asked for what the manifest declares (a revoke of anything granted stays possible).
    const manifest = ctx.manifest?.();
    const declared = manifest && [...manifestFacts(manifest).manifestScopes];
    if (on && declared && !declared.includes(scope))
      throw new Error(
        `scope ${scope} is not declared in manifest.json's permissions, so no person can grant it: send one of ${declared.join(', ') || '(none: the manifest declares no permissions)'}, or declare it first.`,
      );
    let grant = state.grants.find((g) => g.user_id === userId);
    if (!grant) {
      state.grants.push({ user_id: userId, mini_app_id: ctx.miniAppId, scopes: [] });
      // The state keeps a copy of what is pushed (trackChanges): the scopes are set on that copy, not on the object
      // pushed, which nothing reads.
      grant = state.grants.at(-1)!;
    }
    // An event tells of a change: refusing a scope never granted revokes nothing, and granting one already granted
    // grants nothing, so neither sends one (the platform's events are granted and revoked, not asked or refused).
    if (grant.scopes.includes(scope) === on) return;
    grant.scopes = grant.scopes.filter((s) => s !== scope).concat(on ? [scope] : []);
    emit(on ? 'scope.granted' : 'scope.revoked', { app_user_id: userOf(userId).app_user_id, scope });
  };

  return { state, emit, userOf, memberOf, setScope };
}

/** What a person does in the messenger: tokens, installs, scopes, messages, rooms, settings. */
function personActions(
  ctx: ControlContext,
  { state, emit, userOf, memberOf, setScope }: ReturnType<typeof actionHelpers>,
) {
  return {
    'GET /__svc/state': () => state,
    'POST /__svc/subject-token': async (b) => ({
      subject_token: await ctx.idp.subjectToken(userOf(b.user_id).id),
      actor_token: b.agent_id ? await ctx.idp.actorToken(b.agent_id) : undefined,
      expires_in: 3600,
    }),
    'POST /__svc/install': (b) => {
      const user = memberOf(b.user_id);
      // An event tells of a change: installing what is installed (this version) changes nothing and sends none.
      const now = state.installations.find((i) => i.user_id === user.id);
      if (now?.installed && now.version === state.version) return;
      state.installations = state.installations.filter((i) => i.user_id !== user.id);
      state.installations.push({
        user_id: user.id,
        mini_app_id: ctx.miniAppId,
        version: state.version,
        installed: true,
        installed_at: new Date().toISOString(),
      });
      emit('installation.created', { app_user_id: user.app_user_id, version: state.version });
    },
    'POST /__svc/uninstall': (b) => {
      const user = memberOf(b.user_id);
      const installed = state.installations.filter((i) => i.user_id === user.id && i.installed);
      if (!installed.length) return;
      for (const i of installed) i.installed = false;
      emit('installation.deleted', {
        app_user_id: user.app_user_id,
        removed_by: b.removed_by === 'admin' ? 'admin' : 'user',
      });
    },
    'POST /__svc/deprovision': (b) => {
      const user = userOf(b.user_id);
      // Removed once: a second removal changes nothing and sends no second event.
      if (user.deprovisioned) return;
      user.deprovisioned = true;
      emit('user.deprovisioned', { app_user_id: user.app_user_id });
    },
    'POST /__svc/storage': (b) => {
      const userId = userOf(b.user_id).id;
      const mine = createMemoryStorage(state.storage?.[userId] as Record<string, JsonValue> | undefined);
      if (b.op !== 'clear' && !b.key) throw new Error(`key is missing: send the storage key to ${b.op}.`);
      if (b.op === 'set') {
        if (b.value === undefined) throw new Error('value is missing: send the value to store.');
        // The host's rule on what an app may store (JSON, at most 64 levels deep): a value the app could never read
        // back (the host refuses to answer it) is refused here too.
        const notStorable = methods['storage.set'].params({ key: b.key, value: b.value }, '');
        if (notStorable) throw new Error(`${notStorable.replace(/^\./, '')}: send a value an app could store.`);
        // The quota's refusal is the app's to hear, as the host's rules give it.
        mine.set(b.key!, b.value as JsonValue);
      } else if (b.op === 'remove') mine.remove(b.key!);
      else mine.clear();
      // The journal records what is assigned: the one key changed, so a change costs the same whatever the person's
      // storage holds. A clear, a first change, or a key that names an object's member (`__proto__`), which no
      // property write may carry, writes the person's whole storage instead.
      state.storage ??= {};
      const kept = state.storage[userId];
      if (!kept || b.op === 'clear' || FORBIDDEN.has(b.key!)) state.storage[userId] = mine.toJSON();
      else if (b.op === 'set') kept[b.key!] = b.value;
      else delete kept[b.key!];
    },
    'POST /__svc/grant': (b) => setScope(memberOf(b.user_id).id, b.scope ?? '', true),
    'POST /__svc/revoke': (b) => setScope(memberOf(b.user_id).id, b.scope ?? '', false),
    'POST /__svc/message': (b) => {
      const room = state.rooms.find((r) => r.id === b.room_id);
      if (!room)
        throw new Error(`room_id ${b.room_id} is unknown: send one of ${state.rooms.map((r) => r.id).join(', ')}.`);
      room.timeline.push({
        ...(b.card ? { card: b.card } : {}),
        kind: 'message',
        event_id: `$${randomUUID()}`,
        sender: userOf().id,
        text: b.text,
        at: new Date().toISOString(),
        via_app: ctx.miniAppId,
      });
    },
    'POST /__svc/rooms': (b) => {
      // A room belongs to the tenant of the person who creates it.
      const tenant = userOf().tenant_id;
      const members = state.users.filter((u) => u.tenant_id === tenant).map((u) => u.id);
      state.rooms.push({
        id: randomUUID(),
        name: b.name,
        is_encrypted: b.is_encrypted === true,
        members,
        timeline: [],
      });
    },
    'PATCH /__svc/settings': (b) => {
      if (b.current_user_id !== undefined) userOf(b.current_user_id);
      // '' is the home grid: the app launched from no room.
      const room = b.current_room_id;
      if (room !== undefined && room !== '' && !state.rooms.some((r) => r.id === room))
        throw new Error(`current_room_id ${room} is unknown; use a room id, or '' for the home grid.`);
      const { theme, locale, current_user_id, current_room_id } = b;
      const patch = Object.entries({ theme, locale, current_user_id, current_room_id }).filter(
        ([, v]) => v !== undefined,
      );
      Object.assign(state.settings, Object.fromEntries(patch));
      // Another person sees the rooms of their own tenant only: stay in the room if they are a member of it.
      const me = state.settings.current_user_id;
      const here = state.rooms.find((r) => r.id === state.settings.current_room_id);
      if (here && !here.members.includes(me))
        state.settings.current_room_id = state.rooms.find((r) => r.members.includes(me))?.id ?? '';
    },
  } satisfies Partial<Pick<ControlHandlers, StateRoute>>;
}

/** What the administrator and the developer do: reset, deliveries, revocation, secret rotation. */
function adminActions(ctx: ControlContext, { state, emit, userOf }: ReturnType<typeof actionHelpers>) {
  return {
    'POST /__svc/reset': () => {
      // Back to a fresh start, in place (the router, the handle and the state file all hold this object); the
      // revision keeps counting so pages take the fresh state as the newest.
      const fresh = initialState(ctx.miniAppId, state.version);
      for (const key of Object.keys(state) as (keyof DevState)[]) if (key !== 'revision') delete state[key];
      Object.assign(state, fresh);
    },
    'POST /__svc/notifications/read': (b) => {
      const note = state.notifications.find((n) => n.id === b.id);
      if (!note) throw new Error(`id ${b.id} is not a notification: send the id of one in state.notifications.`);
      note.read = true;
    },
    'POST /__svc/deliveries/resend': (b) => {
      const old = state.deliveries.find((d) => d.id === b.id);
      if (!old) throw new Error(`id ${b.id} is not a delivery: send the id of one in state.deliveries.`);
      if (!ctx.webhooks) throw new Error('There is no webhook URL to send to: start svc dev with --webhooks <url>.');
      ctx.webhooks.send(old.event, old.payload, old.id);
    },
    'POST /__svc/deliveries/resend-failed': () => {
      if (!ctx.webhooks) throw new Error('There is no webhook URL to send to: start svc dev with --webhooks <url>.');
      // Taken first: each resend adds a delivery to the list this reads.
      for (const old of failedNotSentAgain(state.deliveries)) ctx.webhooks.send(old.event, old.payload, old.id);
    },
    'POST /__svc/deliveries/test': (b) => {
      if (!ctx.webhooks) throw new Error('There is no webhook URL to send to: start svc dev with --webhooks <url>.');
      // The contract's example, about the person using the messenger now and this app's version.
      const fields: Record<string, unknown> = { ...WEBHOOK_SCHEMAS[b.event as WebhookEventName].example };
      // emit() sets what every event carries (its name, the time, the app, the tenant) itself.
      for (const base of ['event', 'occurred_at', 'mini_app_id', 'tenant_id']) delete fields[base];
      emit(b.event, {
        ...fields,
        ...('app_user_id' in fields ? { app_user_id: userOf().app_user_id } : {}),
        ...('version' in fields ? { version: state.version } : {}),
      });
    },
    'POST /__svc/revoke-version': (b) => {
      state.version_revoked = true;
      // The version is revoked in every tenant: one event for each tenant it is installed in, so a backend that
      // keeps its state per tenant acts on each (one tenant when nobody has it installed).
      const tenantOf = (userId: string) => state.users.find((u) => u.id === userId)?.tenant_id;
      const tenants = new Set(state.installations.filter((i) => i.installed).map((i) => tenantOf(i.user_id)));
      tenants.delete(undefined);
      for (const tenant of tenants.size > 0 ? tenants : [undefined])
        emit('app.revoked', {
          ...(tenant ? { tenant_id: tenant } : {}),
          version: state.version,
          ...(b.reason ? { reason: b.reason } : {}),
        });
    },
    'POST /__svc/rotate-secret': (b) => {
      const overlap = b.overlap_seconds ?? 3600;
      const endedOverlap = rotateSecrets(ctx.secrets, overlap);
      state.secret = {
        generation: state.secret.generation + 1,
        previous_valid_until: new Date(ctx.secrets.previous?.until ?? Date.now()).toISOString(),
      };
      return ctx.rotated?.(endedOverlap) ?? undefined;
    },
  } satisfies Partial<Pick<ControlHandlers, StateRoute>>;
}

/**
 * The platform's control actions, by `METHOD /path`: what the messenger page does over HTTP and what
 * `startDevPlatform`'s handle does in-process (install, grant, revoke, ...). Each one that changes the state returns
 * nothing; its route (or the handle) then saves the state and tells the pages.
 */
export function controlActions(ctx: ControlContext): Pick<ControlHandlers, StateRoute> {
  const helpers = actionHelpers(ctx);
  return { ...personActions(ctx, helpers), ...adminActions(ctx, helpers) };
}
