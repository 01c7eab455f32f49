import * as z from 'zod';
import { MANIFEST_SCOPES, type PermissionScope, SCOPE_TO_MANIFEST } from '../protocol/scopes';
import { boundedText } from './boundedText';
import { closedObjectRules } from './closedObjectRules';
import { characterAt, notAllowed, show, tooFew } from './helpers';
import { describeHostProblem, HOST_PATTERN } from './hostName';

/** `<width>x<height>`, digits only. */
const ICON_SIZES_PATTERN = /^[0-9]+x[0-9]+$/;

/**
 * An entry of `icons`.
 * @public
 */
export const IconSchema = z
  .strictObject({
    src: boundedText(1, undefined, 'Path of the image inside the package, such as "icons/192.png".'),
    sizes: z
      .string()
      .regex(ICON_SIZES_PATTERN, {
        error: ({ input }) => {
          const v = String(input);
          return `must be <width>x<height> with digits only, such as "192x192"; got ${show(v)}${/^\d+X\d+$/.test(v) ? `; write "${v.toLowerCase()}"` : ''}`;
        },
      })
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
      .url({ protocol: /^https?$/ })
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
    z
      .strictObject({
        channel: z.literal('tenant-private').meta({ description: 'Installable only by the listed tenants.' }),
        tenants: z
          .array(boundedText(1, undefined, 'A tenant identifier.'))
          .min(1, tooFew('list the tenants that may install it, or use {"channel": "store"}'))
          .meta({ description: 'Tenants that may install the mini app; at least one.' }),
      })
      .register(closedObjectRules, { variantKey: 'channel' }),
    z
      .strictObject({ channel: z.literal('store').meta({ description: 'Published in the public store.' }) })
      .register(closedObjectRules, {
        variantKey: 'channel',
        refused: {
          tenants: {
            code: 'distribution_both',
            message:
              'cannot be combined with "channel": "store": a package is either in the store or private to tenants, never both. Remove "tenants" to publish in the store, or set "channel": "tenant-private" to keep it private',
          },
        },
      }),
  ])
  .meta({
    description:
      'Where the mini app is offered: {"channel": "store"} or {"channel": "tenant-private", "tenants": [...]}.',
  });

/**
 * A route path: a URL's path, as a link to the app is written. Not `//` first (a link to another host wherever it
 * is resolved against the messenger's URL), no `?` or `#` (a link's query and fragment are not part of its route),
 * no space, control character or `\` (a browser would encode or rewrite them, so the link would not be this path).
 */
const ROUTE_PATH = /^\/(?!\/)[^?#\\\s\p{Cc}]*$/u;

/** Why a route path is not one, and what to write. */
function routePathProblem(path: string): string {
  if (!path.startsWith('/')) return `must start with "/"; write "/${path}"`;
  if (path.startsWith('//'))
    return `must not start with "//", which links to another host; write "/${path.replace(/^\/+/, '')}"`;
  const query = /[?#]/.exec(path);
  if (query)
    return `holds "${query[0]}" at character ${characterAt(path, query.index)}: a route is a path alone (a link may add a query); write ${JSON.stringify(path.slice(0, query.index))}`;
  const odd = /[\\\s\p{Cc}]/u.exec(path)!;
  return `holds ${JSON.stringify(odd[0])} at character ${characterAt(path, odd.index)}: a link cannot carry it as written; percent-encode it (${encodeURIComponent(odd[0])}) or remove it`;
}

/**
 * An entry of `routes`: a path that can be opened, including by universal links.
 * @public
 */
export const RouteSchema = z
  .strictObject({
    path: z
      .string()
      .regex(ROUTE_PATH, { error: ({ input }) => routePathProblem(String(input)) })
      .meta({ description: 'Route path starting with "/", such as "/orders"; no query, fragment, space or "\\".' }),
    title: boundedText(1, undefined, 'Title of the screen at this route.'),
  })
  .meta({ description: 'A declared route; an undeclared route cannot be opened by an external link.' });

/**
 * An entry of `permissions`.
 * @public
 */
export const PermissionSchema = z
  .strictObject({
    scope: z
      .enum(MANIFEST_SCOPES, {
        // A bridge short scope (`room.send`, or `svc.room.send` as a manifest scope is written) where a manifest scope
        // is expected suggests its manifest name (`svc.message.send`).
        error: (issue) =>
          issue.code === 'invalid_value'
            ? notAllowed(issue.values, issue.input, (given, allowed) => {
                const short = given.replace(/^svc\./, '');
                const mapped = Object.hasOwn(SCOPE_TO_MANIFEST, short)
                  ? SCOPE_TO_MANIFEST[short as PermissionScope]
                  : undefined;
                return mapped && allowed.includes(mapped) ? mapped : undefined;
              })
            : undefined,
      })
      .meta({ description: 'The permission scope.' }),
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
export const HostSchema = z
  .string()
  .regex(HOST_PATTERN, {
    error: ({ input }) =>
      `is not a bare host name: ${describeHostProblem(String(input)) ?? 'write something like "api.example.com"'}`,
  })
  .meta({
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
