import * as z from 'zod';
import { MANIFEST_SCOPES } from '../protocol/scopes';
import { boundedText } from './boundedText';
import { HOST_PATTERN } from './hostName';

/** `<width>x<height>`, digits only. */
export const ICON_SIZES_PATTERN = /^[0-9]+x[0-9]+$/;

/**
 * An entry of `icons`.
 * @public
 */
export const IconSchema = z
  .strictObject({
    src: boundedText(1, undefined, 'Path of the image inside the package, such as "icons/192.png".'),
    sizes: z
      .string()
      .regex(ICON_SIZES_PATTERN)
      .meta({ description: 'Pixel size as <width>x<height>, digits only, such as "192x192".' }),
    type: z.enum(['image/png', 'image/webp']).meta({ description: 'MIME type of the image.' }),
  })
  .meta({ description: 'An app icon.' });

/**
 * The `vendor` object: who publishes the mini app.
 * @public
 */
export const VendorSchema = z
  .strictObject({
    id: boundedText(1, undefined, 'The vendor identifier given by the developer console.'),
    name: boundedText(1, undefined, 'The vendor name shown to users.'),
    contact: z.email().meta({ description: 'E-mail address where the store and users reach the vendor.' }),
    support_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL, such as "https://example.com/support"' })
      .optional()
      .meta({ description: 'Absolute http(s) URL of the support page.' }),
  })
  .meta({ description: 'Who publishes the mini app.' });

/**
 * The `distribution` object: either in the store, or private to listed tenants, never both.
 * @public
 */
export const DistributionSchema = z
  .discriminatedUnion('channel', [
    z.strictObject({
      channel: z.literal('tenant-private').meta({ description: 'Installable only by the listed tenants.' }),
      tenants: z
        .array(boundedText(1, undefined, 'A tenant identifier.'))
        .min(1)
        .meta({ description: 'Tenants that may install the mini app; at least one.' }),
    }),
    z.strictObject({ channel: z.literal('store').meta({ description: 'Published in the public store.' }) }),
  ])
  .meta({
    description:
      'Where the mini app is offered: {"channel": "store"} or {"channel": "tenant-private", "tenants": [...]}.',
  });

/**
 * An entry of `routes`: a path that can be opened, including by universal links.
 * @public
 */
export const RouteSchema = z
  .strictObject({
    path: z.string().regex(/^\//).meta({ description: 'Route path starting with "/", such as "/orders".' }),
    title: boundedText(1, undefined, 'Title of the screen at this route.'),
  })
  .meta({ description: 'A declared route; an undeclared route cannot be opened by an external link.' });

/**
 * An entry of `permissions`.
 * @public
 */
export const PermissionSchema = z
  .strictObject({
    scope: z.enum(MANIFEST_SCOPES).meta({ description: 'The permission scope.' }),
    purpose: boundedText(
      10,
      200,
      'Why the mini app needs it, shown to the user at consent time (10 to 200 characters).',
    ),
    optional: z
      .boolean()
      .default(false)
      .meta({ description: 'Whether the mini app works without it (default false).' }),
  })
  .meta({ description: 'A permission the mini app may request.' });

/**
 * A network allowlist entry: a bare lowercase host name.
 * @public
 */
export const HostSchema = z.string().regex(HOST_PATTERN).meta({
  description:
    'A bare lowercase host name with at least two labels, such as "api.example.com": no scheme, path, port, IP address or wildcard.',
});

/**
 * The `network` object: the hosts `fetch` and WebSockets may reach (HTTPS and WSS only).
 * @public
 */
export const NetworkSchema = z
  .strictObject({
    connect: z.array(HostSchema).optional().meta({ description: 'Hosts reachable over HTTPS (fetch, XHR).' }),
    socket: z.array(HostSchema).optional().meta({ description: 'Hosts reachable over WSS.' }),
  })
  .meta({ description: 'Network allowlist enforced by the native runtime.' });
