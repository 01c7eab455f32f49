// The shared host-rules suite against svc-sdk/mock.
import { createMockHost } from '../../src/mock';
import { describeHostRules } from './hostRules';

describeHostRules('svc-sdk/mock', ({ manifest, answers = {}, permissions, confirmActions }) => {
  const host = createMockHost({
    manifest,
    permissions,
    confirmActions,
    // The mock's answers take the scope itself; the host's take the sheet's request.
    answers: {
      ...(answers.permission && {
        permission: (scope) => answers.permission!({ scope, manifestScope: '', purpose: '' }),
      }),
      ...(answers.send && { send: answers.send }),
      ...(answers.signIn && { signIn: answers.signIn }),
      ...(answers.confirmAction && {
        confirmAction: (r) => answers.confirmAction!({ ...r, title: r.name, destructive: false }),
      }),
    },
  });
  return {
    svc: host.svc,
    invoke: (name, input, context) => host.invokeAction(name, input, context),
    flush: host.flush,
  };
});
