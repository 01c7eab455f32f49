// The token exchange as the messenger page makes it, over HTTP on loopback: the person's subject token from the
// control API, then an RFC 8693 exchange at the platform's token endpoint.
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT } from '../../src/dev/tokenExchangeForm';
import { platformHeaders } from './controlApi';

/** A running platform's parts the exchange needs. */
interface Platform {
  origin: string;
  controlToken: string;
  authUrl: string;
  realm: string;
}

/**
 * Exchanges `userId`'s subject token (and `agent`'s actor token, when given) for `audience` at the token endpoint;
 * resolves to the endpoint's answer, a token or an OAuth error.
 */
export async function exchangeOverHttp(
  platform: Platform,
  { audience, userId = 'alice', agent }: { audience: string; userId?: string; agent?: string },
): Promise<Response> {
  const { subject_token, actor_token } = (await (
    await fetch(`${platform.origin}/__svc/subject-token`, {
      method: 'POST',
      headers: platformHeaders(platform),
      body: JSON.stringify({ user_id: userId, ...(agent ? { agent_id: agent } : {}) }),
    })
  ).json()) as { subject_token: string; actor_token?: string };
  return fetch(`${platform.authUrl}/realms/${platform.realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: TOKEN_EXCHANGE_GRANT,
      subject_token,
      subject_token_type: ACCESS_TOKEN_TYPE,
      audience,
      ...(actor_token ? { actor_token, actor_token_type: ACCESS_TOKEN_TYPE } : {}),
    }),
  });
}
