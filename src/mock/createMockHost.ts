import type { ActionOutput } from 'svc-sdk';
import { createSvc } from '../client/createSvc';
import { createHost } from '../host/createHost';
import type { HostHandlers } from '../host/types';
import { createMemoryGrants } from '../host/rules/GrantStore';
import { createMemoryStorage } from '../host/rules/createMemoryStorage';
import { assertManifest } from '../manifest';
import { undeclaredAdvice } from '../manifest/manifestFacts';
import { type PeerMethod, WIRE } from '../protocol/frames';
import { methods, type MethodName } from '../protocol/methods';
import { SvcError } from '../protocol/SvcError';
import type { Identity } from '../protocol/types';
import { createMemoryPair } from '../rpc/createMemoryPair';
import type { Transport } from '../rpc/Transport';
import { createFaults } from './createFaults';
import { initialPermissions } from './initialPermissions';
import type { MockHost } from './MockHost';
import { mockAnswers } from './mockAnswers';
import { mockEffects } from './mockEffects';
import { emptyUi, type MockRecords } from './MockState';
import { deriveAppUserId } from './mockToken';
import { nodeSafe } from './nodeSafe';
import { tapTransport } from './tapTransport';
import { countInFlight } from './countInFlight';
import type { MockCall, MockHostOptions } from './types';

// Whether an operation is fire-and-forget (its effect is what flush() waits for).
const isNotification = (method: string) => methods[method as MethodName]?.kind === 'notification';

/**
 * Creates a mock host for a unit test: the real `svc` client, connected over a structured-cloning in-memory
 * channel to a `createHost()` host that enforces the platform's rules, as every host built on `svc-sdk/host` does.
 *
 * @remarks
 * The mock is a thin layer over that host: the test's answers, in-memory stores, recording and fault injection.
 * Prompts (permissions, confirmations, sends, sign-in, elicitation, action confirmation) are answered by
 * `options.answers`; a prompt without an answer rejects `ERR_MOCK_UNANSWERED`, naming the answer to add.
 * Operations that need a scope reject `ERR_SCOPE_NOT_GRANTED` until it is granted, and never prompt on their own.
 * @throws {@link ManifestError} naming each problem when `options.manifest` is invalid.
 * @throws TypeError when `options.manifest` is missing, or `options.permissions` sets a scope the manifest does not
 * declare.
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
  if (!options || typeof options !== 'object') throw new TypeError('createMockHost(): pass { manifest, ... }');
  // Said of the option: the manifest's own checks would say "$ is required" of a value the test never gave.
  if (options.manifest === undefined)
    throw new TypeError(
      'createMockHost(): options.manifest is required: pass the parsed manifest.json (import manifest from "./manifest.json").',
    );
  const manifest = assertManifest(options.manifest);
  const given = options.identity ?? {};
  const identity: Identity = {
    display_name: 'Test User',
    avatar_url: 'https://avatars.svc.mock/test-user.png',
    ...given,
    app_user_id: given.app_user_id ?? deriveAppUserId(options.userId ?? 'user-1', manifest.id, options.tenantKey),
    tenant_id: given.tenant_id ?? 'tenant-mock',
    locale: options.locale ?? given.locale ?? manifest.default_locale ?? 'en',
  };
  const r: MockRecords = { ui: emptyUi(), sent: [], saved: [], progress: [], unanswered: [], seq: 0 };
  const grants = createMemoryGrants(Object.fromEntries(initialPermissions(manifest, options.permissions)));
  const storage = options.storage ?? createMemoryStorage();
  const faults = createFaults();
  const calls: MockCall[] = [];
  const inFlight = countInFlight();
  const [appEnd, hostEnd] = inFlight.pair(createMemoryPair().map(nodeSafe) as [Transport, Transport]);
  const endpoint = createHost({
    manifest,
    answers: mockAnswers({ answers: options.answers ?? {}, unanswered: r.unanswered, ui: r.ui }),
    handlers: { ...mockEffects({ manifest, options, identity, records: r }), ...options.handlers } as HostHandlers,
    grants,
    storage,
    signedIn: options.signedIn === true,
    confirmActions: options.confirmActions,
    // The mock's invokeAction lets messages already sent arrive first; it never waits on a clock (fake timers).
    handlerWait: 0,
    // flush() waits for a notification's effect (a toast, a title); a request's answer is a message it waits for
    // anyway, and a request waiting on a person is not waited for.
    around: (method, run) =>
      faults.wrap(method, isNotification(method) ? (params, context) => inFlight.run(() => run(params, context)) : run),
    app: { theme: options.theme ?? 'light', locale: identity.locale, launch_params: { ...options.launchParams } },
    transport: tapTransport(hostEnd, calls),
  });
  const rules = endpoint.rules!;
  let closed = false;
  const client = createSvc({
    transport: toldOfClose(appEnd, () => closed),
    snapshot: endpoint.snapshot,
    timeout: options.timeout,
    promptTimeout: options.promptTimeout,
  });

  // Waits for the messages in transit and the operations running, not for a clock: it works under fake timers.
  const flush = () => inFlight.settled();

  return {
    svc: client.svc,
    manifest,
    identity,
    calls,
    ui: r.ui,
    sent: r.sent,
    saved: r.saved,
    progress: r.progress,
    unanswered: r.unanswered,
    storage,
    endpoint,
    callsTo: (method) => calls.filter((c) => c.method === method),
    permission: (scope) =>
      rules.permissions.declared.has(scope)
        ? ((grants.get(scope) as ReturnType<MockHost['permission']>) ?? 'prompt')
        : 'denied',
    setPermission(scope, state) {
      if (!rules.permissions.declared.has(scope))
        throw new TypeError(`setPermission(): '${scope}' is not declared in the manifest (${undeclaredAdvice(scope)})`);
      grants.set(scope, state);
    },
    setSignedIn(signedIn) {
      if (manifest.auth.type !== 'external-oauth')
        throw new TypeError(`setSignedIn(): auth mode '${manifest.auth.type}' has no sign-in`);
      rules.session.signedIn = signedIn;
    },
    async setTheme(theme) {
      endpoint.setTheme(theme);
      await flush();
    },
    async invokeAction(name, input, context = { invoked_by: 'user' }, options) {
      // Handlers the app registered reach the host as a message: let those already sent arrive first.
      await flush();
      // The rules checked the output against the action's output_schema, which its declared type is made from.
      return endpoint.invokeAction(name, input, context, options) as Promise<ActionOutput<typeof name>>;
    },
    assertActionsHandled() {
      const declared = (manifest.actions ?? []).map((a) => a.name);
      const handled = endpoint.handledActions();
      const missing = declared.filter((n) => !handled.includes(n));
      const undeclared = handled.filter((n) => !declared.includes(n));
      const lines = [
        ...(missing.length
          ? [
              // The app's announcement is a message: a test that checks before it arrived is told so.
              `declared actions without a handler: ${missing.join(', ')} (register each with svc.actions.handle(name, handler); an app that registers them reaches the host by a message: await host.flush() before this check)`,
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
      for (const list of [calls, r.sent, r.saved, r.progress, r.unanswered]) list.length = 0;
      Object.assign(r.ui, emptyUi());
      faults.clear();
    },
    close() {
      closed = true;
      client.close();
      endpoint.close();
      inFlight.close();
    },
  };
}

/**
 * The app's end of the pipe, answering a call made after the mock host closed with the host's goodbye, so the call
 * rejects at once (`ERR_DISCONNECTED`). A client that made no call before the close had no channel to hear the
 * goodbye the host sent then, and its calls waited out their whole timeout (10 s, past a test's own).
 */
function toldOfClose(transport: Transport, closed: () => boolean): Transport {
  let receive: ((message: unknown) => void) | undefined;
  return {
    send(message) {
      if (!closed()) return transport.send(message);
      void Promise.resolve().then(() => receive?.({ svc: WIRE, method: 'rpc.close' satisfies PeerMethod, params: {} }));
    },
    listen(r) {
      receive = r;
      transport.listen(r);
    },
    close: () => transport.close(),
  };
}
