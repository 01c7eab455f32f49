import * as z from 'zod';
import { ActionSchema } from './ActionSchema';
import { AuthSchema } from './AuthSchema';
import { boundedText } from './boundedText';
import { checkCsp } from './checkCsp';
import { closedObjectRules } from './closedObjectRules';
import { show, tooFew } from './helpers';
import {
  DistributionSchema,
  IconSchema,
  NetworkSchema,
  PermissionSchema,
  RouteSchema,
  VendorSchema,
} from './fieldSchemas';
import { describeVersionProblem, VERSION_PATTERN } from './version';

/** 16 lowercase hex characters, derived from the developer public key. */
const APP_ID_PATTERN = /^[0-9a-f]{16}$/;

/**
 * The content security policy: must contain `object-src 'none'` and a `script-src` of exactly `'self'`.
 * @public
 */
export const CspSchema = z
  .string()
  .superRefine((csp, ctx) => {
    for (const problem of checkCsp(csp)) {
      ctx.addIssue({ code: 'custom', message: problem.message, params: { code: problem.code } });
    }
  })
  .meta({
    description: `Content security policy; must contain "object-src 'none'" and "script-src 'self'" with no other script source.`,
  });

/**
 * The zod schema of a whole manifest (`manifest.json`), shape and single-field rules.
 *
 * @remarks
 * Objects are strict at every level except inside `input_schema` and `output_schema`. Rules that relate several
 * fields (duplicate names, undeclared routes, the previous version) are checked by {@link validateManifest}, which
 * also turns zod's issues into sentences; prefer it over `ManifestSchema.parse()`.
 * @example
 * ```ts
 * const result = ManifestSchema.safeParse(JSON.parse(text));
 * ```
 * @public
 */
export const ManifestSchema = z
  .strictObject({
    manifest_version: z.literal(1).meta({ type: 'integer', description: 'Manifest format version: the integer 1.' }),
    id: z
      .string()
      .regex(APP_ID_PATTERN, {
        error: ({ input }) => {
          const v = String(input);
          return /^[0-9a-fA-F]{16}$/.test(v)
            ? `must be lowercase hex; write "${v.toLowerCase()}"`
            : `must be 16 lowercase hex characters (0-9, a-f), the id derived from your developer public key; got ${show(v)} (${v.length} characters)`;
        },
      })
      .meta({ description: 'Mini app id: 16 lowercase hex characters derived from the developer public key.' }),
    name: boundedText(1, 60, 'Name shown to users (1 to 60 characters).'),
    short_name: boundedText(
      1,
      20,
      'Short name for tight places such as the home grid (at most 20 characters).',
    ).optional(),
    version: z
      .string()
      .regex(VERSION_PATTERN, { error: ({ input }) => `is not a version: ${describeVersionProblem(String(input))}` })
      .meta({
        description:
          'Package version: three dot-separated integers (major.minor.patch), higher than the published one.',
      }),
    description: boundedText(10, 300, 'What the mini app does (10 to 300 characters).', { lines: true }),
    icons: z
      .array(IconSchema)
      .min(2, tooFew('add icons in at least two sizes, such as 192x192 and 512x512'))
      .meta({ description: 'App icons; at least 2.' }),
    vendor: VendorSchema,
    distribution: DistributionSchema.optional(),
    age_rating: z.enum(['4+', '9+', '12+', '17+']).meta({ description: 'Age rating.' }),
    locales: z
      .array(z.string())
      .optional()
      .meta({ description: 'BCP 47 locales the mini app supports, such as ["en", "de-CH"].' }),
    default_locale: z
      .string()
      .optional()
      .meta({ description: 'The locale used when the user locale is not supported; one of locales.' }),
    entry: boundedText(1, undefined, 'Entry document inside the package, such as "index.html".'),
    routes: z
      .array(RouteSchema)
      .min(1, tooFew('declare at least one route, such as {"path": "/", "title": "Home"}'))
      .meta({ description: 'Declared routes; at least 1.' }),
    permissions: z.array(PermissionSchema).meta({ description: 'Permissions the mini app may request; may be empty.' }),
    network: NetworkSchema,
    csp: CspSchema,
    auth: AuthSchema,
    actions: z.array(ActionSchema).optional().meta({ description: 'Agent tool registry.' }),
  })
  .meta({ title: 'svc mini app manifest', description: 'The manifest of an svc mini app (manifest.json).' })
  .register(closedObjectRules, {
    refused: {
      $schema: {
        code: 'schema_key',
        message:
          'is not a manifest field: a manifest allows no properties beyond those listed, so the store refuses it. Remove it, and map manifest.json to the schema in your editor instead (`svc init` writes .vscode/settings.json; see "Editor setup" in svc-sdk\'s docs/manifest.md)',
      },
    },
  });

/**
 * A valid manifest, as returned by {@link validateManifest} (defaults applied, such as `optional: false`).
 * @public
 */
export type Manifest = z.output<typeof ManifestSchema>;

/**
 * A manifest as written in `manifest.json`, before defaults are applied.
 * @public
 */
export type ManifestInput = z.input<typeof ManifestSchema>;
