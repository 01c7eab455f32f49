// The shared host-rules suite against svc-sdk/mock.
import { createMockHost } from '../../src/mock';
import { describeHostRules } from './hostRules';

describeHostRules('svc-sdk/mock', ({ manifest, answers, permissions, confirmActions }) => {
  const host = createMockHost({
    manifest,
    permissions,
    confirmActions,
    // The mock's answers are the host's.
    answers,
  });
  return {
    svc: host.svc,
    invoke: (name, input, context) => host.invokeAction(name, input, context),
    flush: host.flush,
  };
});
