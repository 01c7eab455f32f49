// The shared host-rules suite against a bare createHost({ manifest }) with scripted answers: a web host built on
// svc-sdk/host, connected to the real client over a structured-cloning channel.
import { createSvc } from '../../src/client/createSvc';
import { createHost, createMemoryGrants, createMemoryPair } from '../../src/host';
import { describeHostRules } from './hostRules';

describeHostRules('createHost({ manifest })', ({ manifest, answers, permissions, confirmActions }) => {
  const [appEnd, hostEnd] = createMemoryPair();
  const host = createHost({
    manifest,
    answers,
    grants: createMemoryGrants(permissions),
    confirmActions,
    // The suite checks refusals at once; waiting for a just-launched app is tested in test/host/peerChecks.test.ts.
    handlerWait: 0,
    handlers: {
      // The platform's effects only: the rules decide what leaves.
      'identity.get': () => ({
        app_user_id: 'u-1',
        tenant_id: 't-1',
        locale: 'en',
        display_name: 'Ada',
        email: 'ada@example.com',
      }),
      'auth.getToken': () => ({ access_token: 'opaque-token', expires_in: 300 }),
      'room.current': () => null,
      'message.send': () => ({ event_id: '$1' }),
    },
    transport: hostEnd,
  });
  const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
  // The memory pair delivers in microtasks, which all run before the next macrotask: one turn settles every chain
  // of messages, however long.
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    svc,
    invoke: (name, input, context = { invoked_by: 'user' }) => host.invokeAction(name, input, context),
    flush,
  };
});
