// The shared host-rules suite against svc-sdk/host/core: the bridge core with the rules as a layer, for a manifest
// the host validated itself (here with validateManifest, as a platform does at upload) and its own JSON Schema
// validator of action inputs.
import { createSvc } from '../../src/client/createSvc';
import { createHost, createMemoryGrants, createMemoryPair, withRules } from '../../src/host/core';
import { assertManifest, createInputValidator } from '../../src/manifest';
import { describeHostRules, nextMacrotask, SUITE_EFFECTS } from './hostRules';

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
    handlers: SUITE_EFFECTS,
    transport: hostEnd,
  });
  const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
  return {
    svc,
    invoke: (name, input, context = { invoked_by: 'user' }) => host.invokeAction(name, input, context),
    flush: nextMacrotask,
  };
});
