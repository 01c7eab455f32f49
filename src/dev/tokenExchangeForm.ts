/** The token-exchange grant type of RFC 8693. @public */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** Subject/actor token type the IdP accepts. @public */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * The RFC 8693 token exchange request of an app's token: the person's subject token, an agent's actor token when
 * one acts, the app's audience and scopes. The one request the messenger page and the platform handle send.
 */
export function tokenExchangeForm({
  subjectToken,
  actorToken,
  audience,
  scopes,
}: {
  subjectToken: string;
  actorToken?: string | undefined;
  audience: string;
  scopes: readonly string[];
}): URLSearchParams {
  const form = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    subject_token: subjectToken,
    subject_token_type: ACCESS_TOKEN_TYPE,
    audience,
    scope: scopes.join(' '),
  });
  if (actorToken) {
    form.set('actor_token', actorToken);
    form.set('actor_token_type', ACCESS_TOKEN_TYPE);
  }
  return form;
}
