import type { Card } from '../protocol/types';

/** A card, as the server API posts it: the bridge's {@link Card}, one shape for both. @public */
export type { Card };

/** Installation state of the mini app for one person. @public */
export interface Installation {
  installed: boolean;
  /** The installed version (semantic version). */
  version: string;
  /** The manifest scopes the person granted. */
  granted_scopes: string[];
  tenant_id: string;
}

/** What `/agents/verify` answers about an agent's token. @public */
export interface AgentDelegation {
  subject: { app_user_id: string };
  actor: { agent_id: string; kind: string };
  tenant_policy: { max_approval_minor: number; currency_code: string };
}
