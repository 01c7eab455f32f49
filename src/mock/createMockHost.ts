import { createSvc } from '../client/createSvc';
import { createHost, type HostHandlers } from '../host/createHost';
import { assertManifest } from '../manifest';
import { SCOPE_TO_MANIFEST } from '../protocol/scopes';
import { SvcError } from '../protocol/SvcError';
import type { Identity } from '../protocol/types';
import { createMemoryPair } from '../rpc/createMemoryPair';
import { accountHandlers } from './accountHandlers';
import { appHandlers } from './appHandlers';
import { nodeSafe } from './nodeSafe';
import { createFaults } from './createFaults';
import { createMockStore } from './createMockStore';
import { mockActions } from './mockActions';
import type { MockHost } from './MockHost';
import { createAsk, declaredScopes, emptyUi, initialPermissions, type MockState } from './MockState';
import { deriveAppUserId } from './mockToken';
import { tapTransport } from './tapTransport';
import type { MockCall, MockHostOptions } from './types';

/**
 * Creates a mock host for a unit test: the real `svc` client, connected over a structured-cloning in-memory
 * channel to a `createHost()` host whose handlers follow the interface's rules.
 *
 * @remarks
 * Prompts (permissions, confirmations, sends, sign-in, elicitation, action confirmation) are answered by
 * `options.answers`; a prompt without an answer rejects `ERR_MOCK_UNANSWERED`, naming the answer to add.
 * Operations that need a scope reject `ERR_SCOPE_NOT_GRANTED` until it is granted, and never prompt on their own.
 * @throws {@link ManifestError} naming each problem when `options.manifest` is invalid.
 * @throws TypeError when `options.permissions` sets a scope the manifest does not declare.
 * @example
 * ```ts
 * const host = createMockHost({ manifest, room: { room_id: '!r', is_encrypted: true, member_count: 3 },
 *   answers: { permission: () => 'granted', send: () => true } });
 * await host.svc.permissions.request('room.send');
 * await host.svc.message.send({ room_id: '!r', body: 'hi' });
 * expect(host.sent).toHaveLength(1);
 * ```
 * @public
 */
export function createMockHost(options: MockHostOptions): MockHost {
  if (!options || typeof options != 'object') throw new TypeError('createMockHost(): pass { manifest, ... }');
  const manifest = assertManifest(options.manifest);
  const declared = declaredScopes(manifest);
  const given = options.identity ?? {};
  const identity: Identity = {
    display_name: 'Test User',
    avatar_url: 'https://avatars.svc.mock/test-user.png',
    ...given,
    app_user_id: given.app_user_id ?? deriveAppUserId(options.userId ?? 'user-1', manifest.id, options.tenantKey),
    tenant_id: given.tenant_id ?? 'tenant-mock',
    locale: options.locale ?? given.locale ?? manifest.default_locale ?? 'en',
  };
  const unanswered: string[] = [];
  const s: MockState = {
    manifest,
    options,
    identity,
    declared,
    permissions: initialPermissions(declared, options.permissions),
    signedIn: options.signedIn === true,
    acting: undefined,
    store: options.storage ?? createMockStore(),
    ui: emptyUi(),
    sent: [],
    saved: [],
    progress: [],
    unanswered,
    seq: 0,
    ask: createAsk(options.answers ?? {}, unanswered),
  };

  const faults = createFaults();
  // The mock answers every registry operation: a new operation without a mock handler fails to compile here.
  const own = { ...accountHandlers(s), ...appHandlers(s) } satisfies Required<HostHandlers>;
  const merged: Record<string, unknown> = { ...own, ...options.handlers };
  const handlers: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(merged))
    if (typeof fn == 'function') handlers[name] = faults.wrap(name, fn as (p: unknown, c: unknown) => unknown);

  const calls: MockCall[] = [];
  const [appEnd, hostEnd] = createMemoryPair();
  const endpoint = createHost({
    handlers: handlers as HostHandlers,
    app: {
      id: manifest.id,
      version: manifest.version,
      locale: identity.locale,
      theme: options.theme ?? 'light',
      launch_params: { ...options.launchParams },
    },
    granted: (scope) => s.permissions.get(scope) == 'granted',
    transport: tapTransport(nodeSafe(hostEnd), calls),
  });
  const client = createSvc({
    transport: nodeSafe(appEnd),
    snapshot: endpoint.snapshot,
    timeout: options.timeout,
    promptTimeout: options.promptTimeout,
  });
  const actions = mockActions(s, endpoint, client.svc.actions);

  const flush = async () => {
    // Microtasks only, no timers: it must also work under fake timers. The in-memory channel delivers in a few.
    for (let i = 0; i < 32; i++) await Promise.resolve();
  };

  const host: MockHost = {
    svc: client.svc,
    manifest,
    identity,
    calls,
    ui: s.ui,
    sent: s.sent,
    saved: s.saved,
    progress: s.progress,
    unanswered,
    storage: s.store,
    endpoint,
    callsTo: (method) => calls.filter((c) => c.method == method),
    permission: (scope) => s.permissions.get(scope) ?? 'denied',
    setPermission(scope, state) {
      if (!declared.has(scope))
        throw new TypeError(
          `setPermission(): '${scope}' is not declared in the manifest (${SCOPE_TO_MANIFEST[scope] ?? 'it has no manifest scope'})`,
        );
      s.permissions.set(scope, state);
    },
    setSignedIn(signedIn) {
      if (manifest.auth.type != 'external-oauth')
        throw new TypeError(`setSignedIn(): auth mode '${manifest.auth.type}' has no sign-in`);
      s.signedIn = signedIn;
    },
    async setTheme(theme) {
      endpoint.setTheme(theme);
      await flush();
    },
    invokeAction: (name, input, context) => actions.invoke(name, input, context),
    assertActionsHandled() {
      const { missing, undeclared } = actions.problems();
      const lines = [
        ...(missing.length
          ? [
              `declared actions without a handler: ${missing.join(', ')} (register each with svc.actions.handle(name, handler))`,
            ]
          : []),
        ...(undeclared.length
          ? [
              `handlers for actions the manifest does not declare: ${undeclared.join(', ')} (a typo, or a missing manifest entry)`,
            ]
          : []),
      ];
      if (lines.length) throw new SvcError('ERR_ACTION_NO_HANDLER', lines.join('; '));
    },
    fail: (method, fault) => faults.add(method, fault),
    delay: (method, ms, o) => faults.add(method, { delay: ms, ...o }),
    hang: (method, o) => faults.add(method, { hang: true, ...o }),
    clearFaults: (method) => faults.clear(method),
    flush,
    reset() {
      // In place, so references a test holds (`const { ui } = host`) stay live.
      for (const list of [calls, s.sent, s.saved, s.progress, unanswered]) list.length = 0;
      Object.assign(s.ui, emptyUi());
      faults.clear();
    },
    close() {
      client.close();
      endpoint.close();
    },
  };
  return host;
}
