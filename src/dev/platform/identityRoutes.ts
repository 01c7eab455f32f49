import { Hono } from 'hono';
import type { IdentityProvider } from './createIdentityProvider';
import type { Guards } from './createGuards';
import { LIMITS } from '../limits';
import type { PlatformEnv } from './PlatformEnv';
import { ProblemError } from './ProblemError';
import { decodeUtf8 } from '../decodeUtf8';

/**
 * The identity provider's routes under `/realms/<realm>`: the OpenID discovery document, the key set, and the
 * RFC 8693 token endpoint, which answers RFC 6749 errors (what OAuth clients read), not problem details. The key
 * set's other methods get the platform app's 405 for a path it has with other methods only.
 * @internal
 */
export function identityRoutes(idp: IdentityProvider, realm: string, guards: Guards) {
  const discovery = `/realms/${realm}/.well-known/openid-configuration`;
  const oidc = `/realms/${realm}/protocol/openid-connect`;
  const limit = guards.limit(LIMITS.tokenForm);
  const noStore = { 'cache-control': 'no-store' };
  return new Hono<PlatformEnv>()
    .get(discovery, limit, (c) => c.json(idp.discovery, 200, noStore))
    .all(discovery, () => {
      throw new ProblemError('method-not-allowed', 'The discovery document is read with GET.', { allow: 'GET, HEAD' });
    })
    .get(`${oidc}/certs`, limit, (c) => c.json(idp.jwks))
    .post(`${oidc}/token`, limit, async (c) => {
      const text = decodeUtf8(new Uint8Array(await c.req.arrayBuffer()));
      const answer =
        text === undefined
          ? { status: 400, body: { error: 'invalid_request', error_description: 'The form is not valid UTF-8.' } }
          : await idp.exchange(new URLSearchParams(text));
      return c.body(JSON.stringify(answer.body), answer.status as 200, {
        'content-type': 'application/json',
        ...noStore,
        pragma: 'no-cache',
      });
    })
    .all(`${oidc}/token`, (c) =>
      c.json({ error: 'invalid_request', error_description: 'The token endpoint takes POST with a form body.' }, 405, {
        allow: 'POST',
        ...noStore,
      }),
    );
}
