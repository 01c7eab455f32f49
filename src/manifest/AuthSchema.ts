import * as z from 'zod';
import { boundedText } from './boundedText';
import { closedObjectRules } from './closedObjectRules';

/** One shape of `auth`, picked by its `type`. */
function variant<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape).register(closedObjectRules, { variantKey: 'type' });
}

const scopes = z
  .array(z.string())
  .optional()
  .meta({ description: 'Scopes to request, space-joined in the token request.' });

/**
 * The `auth` object: one of three shapes, told apart by `type`.
 *
 * @remarks
 * The key is `type`; `validateManifest` tells a manifest that writes `mode` instead to rename the key.
 * @public
 */
export const AuthSchema = z
  .discriminatedUnion('type', [
    variant({
      type: z
        .literal('svc-exchange')
        .meta({ description: 'The native client exchanges the user token for one whose audience is your backend.' }),
      audience: boundedText(1, undefined, 'The audience (aud) of exchanged tokens: your backend.'),
      scopes,
    }),
    variant({
      type: z
        .literal('external-oauth')
        .meta({ description: 'The user signs in with your own OAuth provider in the system browser.' }),
      issuer: z.url().meta({ description: 'Issuer URI of your OAuth provider.' }),
      client_id: boundedText(1, undefined, 'OAuth client id registered with the issuer.'),
      scopes,
    }),
    variant({ type: z.literal('none').meta({ description: 'No identity, token or backend session.' }) }),
  ])
  .meta({ description: 'Authentication mode; it cannot change at runtime.' });
