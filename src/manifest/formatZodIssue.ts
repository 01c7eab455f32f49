import type * as z from 'zod';
import { type PermissionScope, SCOPE_TO_MANIFEST } from '../protocol/scopes';
import { ACTION_NAME_PATTERN } from './ActionSchema';
import { closestName } from './closestName';
import { show } from './checkJsonSchema';
import { ICON_SIZES_PATTERN } from './fieldSchemas';
import { describeHostProblem, HOST_PATTERN } from './hostName';
import { formatJsonPath, type ManifestIssue } from './ManifestIssue';
import { APP_ID_PATTERN } from './ManifestSchema';
import { objectKeys, schemaAtPath } from './schemaAtPath';
import { describeVersionProblem, VERSION_PATTERN } from './version';

type Hint = (input: string) => string;

// Keyed by the pattern as zod reports it (`String(regex)`), so each pattern explains itself in words.
const PATTERN_HINTS = new Map<string, Hint>([
  [
    String(APP_ID_PATTERN),
    (v) =>
      /^[0-9a-fA-F]{16}$/.test(v)
        ? `must be lowercase hex; write "${v.toLowerCase()}"`
        : `must be 16 lowercase hex characters (0-9, a-f), the id derived from your developer public key; got ${show(v)} (${v.length} characters)`,
  ],
  [String(VERSION_PATTERN), (v) => `is not a version: ${describeVersionProblem(v)}`],
  [
    String(HOST_PATTERN),
    (v) => `is not a bare host name: ${describeHostProblem(v) ?? 'write something like "api.example.com"'}`,
  ],
  [
    String(ICON_SIZES_PATTERN),
    (v) =>
      `must be <width>x<height> with digits only, such as "192x192"; got ${show(v)}${/^\d+X\d+$/.test(v) ? `; write "${v.toLowerCase()}"` : ''}`,
  ],
  [
    String(ACTION_NAME_PATTERN),
    (v) =>
      `must start with a lowercase letter, then only lowercase letters, digits and underscores; got ${show(v)}${suggestName(v)}`,
  ],
  [String(/^\//), (v) => `must start with "/"; write "/${v}"`],
]);

const EXPECTED: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  int: 'an integer',
};

/**
 * Turns one zod issue from parsing a manifest into manifest issues whose messages say what to fix.
 *
 * @param issue - an issue from `safeParse(..., { reportInput: true })`.
 * @param root - the schema that was parsed, to list allowed fields and describe missing ones.
 * @param input - the parsed value, to choose the right variant of `auth` and `distribution`.
 */
export function formatZodIssue(issue: z.core.$ZodIssue, root: z.ZodType, input: unknown): ManifestIssue[] {
  const path = formatJsonPath(issue.path);
  const error = (message: string, code: string, at = path): ManifestIssue => ({
    path: at,
    message: `${at} ${message}`,
    severity: 'error',
    code,
  });
  const given = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => unknownField(issue.path, key, root, input));
    case 'invalid_type':
      if (given === undefined) return [missing(issue.path, root, input)];
      if (issue.path.length === 0)
        return [error(`must be a JSON object (the manifest); got ${kindOf(given)}`, 'wrong_type')];
      return [error(`must be ${EXPECTED[issue.expected] ?? issue.expected}; got ${kindOf(given)}`, 'wrong_type')];
    case 'invalid_value': {
      const options = issue.values.map((v) => show(v));
      const strings = issue.values.filter((v): v is string => typeof v === 'string');
      const sameButCase =
        typeof given === 'string' ? strings.find((v) => v.toLowerCase() === given.toLowerCase()) : undefined;
      const near =
        typeof given === 'string' ? (manifestScopeFor(given, strings) ?? closestName(given, strings)) : undefined;
      const hint =
        sameButCase !== undefined
          ? `; write ${show(sameButCase)}`
          : near !== undefined
            ? `; did you mean ${show(near)}?`
            : '';
      return [
        error(
          options.length === 1
            ? `must be ${options[0]}; got ${show(given)}${hint}`
            : `must be one of ${options.join(', ')}; got ${show(given)}${hint}`,
          'not_allowed',
        ),
      ];
    }
    case 'invalid_union': {
      const union = issue as z.core.$ZodIssueInvalidUnion & { discriminator?: string; options?: unknown[] };
      if (union.discriminator !== undefined && union.options) {
        const value = (given as Record<string, unknown> | undefined)?.[union.discriminator];
        const allowed = union.options.map((v) => show(v)).join(', ');
        if (value === undefined) return [error(`is required; add it with one of ${allowed}`, 'missing')];
        return [error(`must be one of ${allowed}; got ${show(value)}`, 'not_allowed')];
      }
      return [
        error('does not match any of the allowed shapes; check it against the manifest reference', 'wrong_shape'),
      ];
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = Number(
        small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum,
      );
      const code = small ? 'too_short' : 'too_long';
      if (issue.origin === 'string') {
        const length = typeof given === 'string' ? [...given].length : 0;
        if (small)
          return [
            error(
              length === 0
                ? `is empty; write at least ${limit} character${limit === 1 ? '' : 's'}`
                : `must be at least ${limit} characters long; it has ${length}, so add ${limit - length} more`,
              code,
            ),
          ];
        return [
          error(`must be at most ${limit} characters long; it has ${length}, so shorten it by ${length - limit}`, code),
        ];
      }
      if (issue.origin === 'array') {
        const count = Array.isArray(given) ? given.length : 0;
        const what = `${limit} item${limit === 1 ? '' : 's'}`;
        return [
          error(
            `must have ${small ? 'at least' : 'at most'} ${what}; it has ${count}${small ? arrayHint(issue.path) : ''}`,
            small ? 'too_few' : 'too_many',
          ),
        ];
      }
      return [error(`must be ${small ? 'at least' : 'at most'} ${limit}; got ${show(given)}`, code)];
    }
    case 'invalid_format': {
      const value = typeof given === 'string' ? given : '';
      if (issue.format === 'email')
        return [error(`must be an e-mail address such as "dev@example.com"; got ${show(given)}`, 'format_email')];
      if (issue.format === 'url')
        return [
          error(`must be an absolute URI such as "https://example.com/support"; got ${show(given)}`, 'format_uri'),
        ];
      const hint = issue.pattern !== undefined ? PATTERN_HINTS.get(issue.pattern) : undefined;
      return [error(hint ? hint(value) : `must match ${issue.pattern ?? issue.format}; got ${show(given)}`, 'pattern')];
    }
    case 'custom':
      return [error(issue.message, String((issue.params as { code?: unknown } | undefined)?.code ?? 'invalid'))];
    default:
      return [error(`is invalid: ${issue.message}`, 'invalid')];
  }
}

function unknownField(parent: readonly PropertyKey[], key: string, root: z.ZodType, input: unknown): ManifestIssue {
  const at = formatJsonPath([...parent, key]);
  const found = schemaAtPath(root, parent, input);
  const allowed = found ? objectKeys(found.schema) : [];
  const issue = (message: string, code: string): ManifestIssue => ({
    path: at,
    message: `${at} ${message}`,
    severity: 'error',
    code,
  });
  if (found?.variant?.key === 'channel' && found.variant.value === 'store' && key === 'tenants') {
    return issue(
      `cannot be combined with "channel": "store": a package is either in the store or private to tenants, never both. Remove "tenants" to publish in the store, or set "channel": "tenant-private" to keep it private`,
      'distribution_both',
    );
  }
  if (parent.length === 0 && key === '$schema') {
    return issue(
      'is not a manifest field: a manifest allows no properties beyond those listed, so the store refuses it. Remove it, and map manifest.json to the schema in your editor instead (`svc init` writes .vscode/settings.json; see the README, "Editor setup")',
      'schema_key',
    );
  }
  const near = allowed.find((name) => normalise(name) === normalise(key)) ?? closestName(key, allowed);
  const variant = found?.variant
    ? ` when ${formatJsonPath([...parent, found.variant.key])} is ${show(found.variant.value)}`
    : '';
  const where = `a manifest field${variant}`;
  const fix = near !== undefined ? `did you mean "${near}"? Rename it` : 'remove it';
  return issue(`is not ${where}; ${fix} (allowed: ${allowed.join(', ') || 'none'})`, 'unknown_field');
}

function missing(path: readonly PropertyKey[], root: z.ZodType, input: unknown): ManifestIssue {
  const at = formatJsonPath(path);
  const description = schemaAtPath(root, path, input)?.description;
  const what = description ? ` (${description.replace(/\.$/, '')})` : '';
  return {
    path: at,
    message: `${at} is required; add "${String(path[path.length - 1] ?? '')}"${what}`,
    severity: 'error',
    code: 'missing',
  };
}

function arrayHint(path: readonly PropertyKey[]): string {
  const field = path[path.length - 1];
  if (field === 'icons') return '; add icons in at least two sizes, such as 192x192 and 512x512';
  if (field === 'routes') return '; declare at least one route, such as {"path": "/", "title": "Home"}';
  if (field === 'tenants') return '; list the tenants that may install it, or use {"channel": "store"}';
  return '';
}

function suggestName(value: string): string {
  const fixed = value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^[^a-z]+/, '');
  return fixed && fixed !== value && ACTION_NAME_PATTERN.test(fixed) ? `; write "${fixed}"` : '';
}

/** A bridge short scope (`room.context`) where a manifest scope is expected: its manifest name, if it has one. */
function manifestScopeFor(given: string, allowed: string[]): string | undefined {
  const mapped = Object.hasOwn(SCOPE_TO_MANIFEST, given) ? SCOPE_TO_MANIFEST[given as PermissionScope] : undefined;
  return mapped && allowed.includes(mapped) ? mapped : undefined;
}

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${show(value)}`;
}
