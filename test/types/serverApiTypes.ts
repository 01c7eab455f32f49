// Type-level contract, checked by `tsc --noEmit` (npm test): the types openapi-typescript generates from
// schema/server-api.openapi.json agree with the ones svc-sdk/server exports, field for field (same keys, each side
// assignable to the other), for every body of the server API and every webhook payload.
import type {
  AgentDelegation,
  AppRevokedEvent,
  Card,
  Installation,
  InstallationCreatedEvent,
  InstallationDeletedEvent,
  Problem,
  ScopeGrantedEvent,
  ScopeRevokedEvent,
  ServerClient,
  UserDeprovisionedEvent,
  WebhookEventMap,
  WebhookEventName,
} from '../../src/server';
import type { components, operations, webhooks } from './serverApiOpenapi.generated';

type Schemas = components['schemas'];
/** True when A and B have the same keys and each is assignable to the other. */
type Agree<A, B> = [keyof A, keyof B] extends [keyof B, keyof A]
  ? [A] extends [B]
    ? [B] extends [A]
      ? true
      : false
    : false
  : false;
const agree = <A, B>(_proof: Agree<A, B>) => undefined;

agree<Schemas['Card'], Card>(true);
agree<NonNullable<Schemas['Card']['actions']>[number], NonNullable<Card['actions']>[number]>(true);
agree<Schemas['Installation'], Installation>(true);
agree<Schemas['AgentDelegation'], AgentDelegation>(true);
agree<Schemas['AgentDelegation']['tenant_policy'], AgentDelegation['tenant_policy']>(true);
agree<Schemas['Problem'], Problem>(true);
agree<Schemas['InstallationCreatedEvent'], InstallationCreatedEvent>(true);
agree<Schemas['InstallationDeletedEvent'], InstallationDeletedEvent>(true);
agree<Schemas['ScopeGrantedEvent'], ScopeGrantedEvent>(true);
agree<Schemas['ScopeRevokedEvent'], ScopeRevokedEvent>(true);
agree<Schemas['UserDeprovisionedEvent'], UserDeprovisionedEvent>(true);
agree<Schemas['AppRevokedEvent'], AppRevokedEvent>(true);

// The client's methods send what the operations take and resolve what they answer.
type Body<O extends keyof operations> = operations[O] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Answer<O extends keyof operations, S extends number> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer A } }> ? A : never;
agree<Answer<'postCard', 201>, Awaited<ReturnType<ServerClient['postCard']>>>(true);
agree<Answer<'getInstallation', 200>, Awaited<ReturnType<ServerClient['getInstallation']>>>(true);
agree<Answer<'verifyAgent', 200>, Awaited<ReturnType<ServerClient['verifyAgent']>>>(true);
agree<Omit<Body<'postCard'>, 'mini_app_id'>, Parameters<ServerClient['postCard']>[1]>(true);
agree<Omit<Body<'notify'>, 'mini_app_id'>, Parameters<ServerClient['notify']>[1]>(true);
agree<Body<'verifyAgent'>['token'], Parameters<ServerClient['verifyAgent']>[0]>(true);

// The webhooks are exactly the events svc-sdk/server knows, each with its payload.
agree<keyof webhooks, WebhookEventName>(true);
type Payload<E extends keyof webhooks> = webhooks[E]['post'] extends {
  requestBody: { content: { 'application/json': infer P } };
}
  ? P
  : never;
type EveryPayloadAgrees = { [E in WebhookEventName]: Agree<Payload<E>, WebhookEventMap[E]> }[WebhookEventName];
const everyPayloadAgrees: EveryPayloadAgrees = true;
void everyPayloadAgrees;

// A disagreement is caught: a field svc-sdk/server lacks, or one of another type.
// @ts-expect-error the contract's Installation has tenant_id
agree<Schemas['Installation'], Omit<Installation, 'tenant_id'>>(true);
// @ts-expect-error removed_by is 'user' | 'admin', not any string
agree<Schemas['InstallationDeletedEvent'], Omit<InstallationDeletedEvent, 'removed_by'> & { removed_by: string }>(true);
