// Who invokes an action, as a host's TypeScript types it: an agent names itself, and a host with rules sets
// `confirmed` itself (refused at run time when given; the bare bridge's ActionContext still takes it).
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
}
