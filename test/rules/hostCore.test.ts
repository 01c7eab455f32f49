// The shared host-rules suite against svc-sdk/host/core: the bridge core with the rules as a layer, for a manifest
// the host validated itself (here with validateManifest, as a platform does at upload) and its own JSON Schema
// validator of action inputs.
import { createSvc } from '../../src/client/createSvc';
import { createHost, createMemoryGrants, createMemoryPair, withRules } from '../../src/host/core';
import { assertManifest, createInputValidator } from '../../src/manifest';
import { describeHostRules } from './hostRules';

describeHostRules('svc-sdk/host/core: createHost({ rules: withRules(...) })', (setup) => {
  const [appEnd, hostEnd] = createMemoryPair();
  const host = createHost({
    rules: withRules({
      manifest: assertManifest(setup.manifest),
      validator: createInputValidator,
      answers: setup.answers,
      grants: createMemoryGrants(setup.permissions),
      confirmActions: setup.confirmActions,
      handlerWait: 0,
    }),
    handlers: {
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
  return {
    svc,
    invoke: (name, input, context = { invoked_by: 'user' }) => host.invokeAction(name, input, context),
    flush: async () => {
      for (let i = 0; i < 32; i++) await Promise.resolve();
    },
  };
});
