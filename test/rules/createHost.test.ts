// The shared host-rules suite against a bare createHost({ manifest }) with scripted answers: a web host built on
// svc-sdk/host, connected to the real client over a structured-cloning channel.
import { createSvc } from '../../src/client/createSvc';
import { createHost, createMemoryGrants, createMemoryPair } from '../../src/host';
import { describeHostRules, nextMacrotask, SUITE_EFFECTS } from './hostRules';

describeHostRules('createHost({ manifest })', ({ manifest, answers, permissions, confirmActions }) => {
  const [appEnd, hostEnd] = createMemoryPair();
  const host = createHost({
    manifest,
    answers,
    grants: createMemoryGrants(permissions),
    confirmActions,
    // The suite checks refusals at once; waiting for a just-launched app is tested in test/host/peerChecks.test.ts.
    handlerWait: 0,
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
