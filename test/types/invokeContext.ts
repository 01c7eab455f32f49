// Who invokes an action, as a host's TypeScript types it: an agent names itself, and a host with rules sets
// `confirmed` itself (refused at run time when given; a host without a manifest sends the one given). Either way an
// agent names itself.
import { createHost } from 'svc-sdk/host';

declare const manifest: Parameters<typeof createHost>[0]['manifest'];

export async function invokes(): Promise<void> {
  const host = createHost({ manifest });
  await host.invokeAction('create_poll', {}, { invoked_by: 'user' });
  await host.invokeAction('create_poll', {}, { invoked_by: 'agent', agent_id: 'agent-7' });
  // @ts-expect-error an agent without its id
  await host.invokeAction('create_poll', {}, { invoked_by: 'agent' });
  // @ts-expect-error the person has no agent id
  await host.invokeAction('create_poll', {}, { invoked_by: 'user', agent_id: 'agent-7', signal: undefined });
  const bare = createHost({});
  await bare.invokeAction('create_poll', {}, { invoked_by: 'agent', agent_id: 'agent-7', confirmed: true });
  // @ts-expect-error an agent without its id, also with confirmed given
  await bare.invokeAction('create_poll', {}, { invoked_by: 'agent', confirmed: false });
  // @ts-expect-error the person has no agent id, also with confirmed given
  await bare.invokeAction('create_poll', {}, { invoked_by: 'user', agent_id: 'agent-7', confirmed: true });
}
