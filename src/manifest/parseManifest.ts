import * as z from 'zod';
import { closestName } from './closestName';
import { closedObjectRules } from './closedObjectRules';
import { kindOf, notAllowed, show } from './helpers';
import { formatJsonPath, type ManifestIssue } from './ManifestIssue';
import { type Manifest, ManifestSchema } from './ManifestSchema';

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
 * Parses a manifest with {@link ManifestSchema} and turns every zod issue into a manifest issue whose message says
 * what to fix.
 *
 * @remarks
 * A field's own advice (a pattern explained in words, what to add to a short list) is written beside its rule in the
 * schema, through zod's `error` option; the sentences every field shares (a wrong type, a missing field, a length)
 * come from the error map below, which zod consults only when the rule has none. An unknown key's advice depends on
 * the object that refused it (its fields, the variant it is, the keys it refuses with a reason), so the error map
 * writes one issue per key while the object is at hand.
 */
export function parseManifest(
  input: unknown,
): { success: true; data: Manifest; issues: [] } | { success: false; issues: ManifestIssue[] } {
  const unknownKeys = new Map<string, ManifestIssue[]>();
  const parsed = ManifestSchema.safeParse(input, {
    reportInput: true,
    // A manifest is parsed once (at start, on an edit): compiling zod's fast paths for each of its objects costs more
    // than that one parse (`svc dev`'s start: 14 ms instead of about 5), and the result is the same.
    jitless: true,
    error: (issue) => sentenceFor(issue, unknownKeys),
  });
  if (parsed.success) return { success: true, data: parsed.data, issues: [] };
  const issues = parsed.error.issues.flatMap((issue): ManifestIssue[] => {
    const path = formatJsonPath(issue.path);
    if (issue.code === 'unrecognized_keys') return unknownKeys.get(path) ?? [];
    return [{ path, message: `${path} ${issue.message}`, severity: 'error', code: codeOf(issue) }];
  });
  // A value of the wrong type gets that one issue: zod may still run the rule's checks on it (an array's minimum on
  // a string), whose sentences would describe a value that is not there.
  const wrongType = new Set(issues.filter((i) => i.code === 'wrong_type').map((i) => i.path));
  return { success: false, issues: issues.filter((i) => i.code === 'wrong_type' || !wrongType.has(i.path)) };
}

/** The sentence after the path, for the issues whose rule carries no advice of its own. */
function sentenceFor(issue: z.core.$ZodRawIssue, unknownKeys: Map<string, ManifestIssue[]>): string {
  const given = issue.input;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const parent = issue.path ?? [];
      unknownKeys.set(
        formatJsonPath(parent),
        issue.keys.map((key) => unknownKey(parent, key, issue.inst, given)),
      );
      return `has unknown keys: ${issue.keys.join(', ')}`;
    }
    case 'invalid_type': {
      const path = issue.path ?? [];
      if (given === undefined) {
        const description = issue.inst instanceof z.ZodType ? issue.inst.description : undefined;
        const what = description ? ` (${description.replace(/\.$/, '')})` : '';
        return `is required; add "${String(path[path.length - 1] ?? '')}"${what}`;
      }
      if (path.length === 0) return `must be a JSON object (the manifest); got ${kindOf(given)}`;
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}; got ${kindOf(given)}`;
    }
    case 'invalid_value':
      return notAllowed(issue.values, given);
    case 'invalid_union': {
      const options = issue.options as unknown[] | undefined;
      if (issue.discriminator !== undefined && options) {
        const value = (given as Record<string, unknown> | undefined)?.[issue.discriminator];
        const allowed = options.map((v) => show(v)).join(', ');
        if (value === undefined) return `is required; add it with one of ${allowed}`;
        return `must be one of ${allowed}; got ${show(value)}`;
      }
      return 'does not match any of the allowed shapes; check it against the manifest reference';
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      if (issue.origin === 'string') {
        const length = typeof given === 'string' ? [...given].length : 0;
        if (!small)
          return `must be at most ${limit} characters long; it has ${length}, so shorten it by ${length - limit}`;
        return length === 0
          ? `is empty; write at least ${limit} character${limit === 1 ? '' : 's'}`
          : `must be at least ${limit} characters long; it has ${length}, so add ${limit - length} more`;
      }
      if (issue.origin === 'array') {
        const count = Array.isArray(given) ? given.length : 0;
        return `must have ${small ? 'at least' : 'at most'} ${limit} item${limit === 1 ? '' : 's'}; it has ${count}`;
      }
      return `must be ${small ? 'at least' : 'at most'} ${limit}; got ${show(given)}`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return `must be an e-mail address such as "dev@example.com"; got ${show(given)}`;
      if (issue.format === 'url')
        return `must be an absolute URI such as "https://example.com/support"; got ${show(given)}`;
      return `must match ${issue.pattern ?? issue.format}; got ${show(given)}`;
    default:
      return `is invalid: ${issue.message ?? issue.code}`;
  }
}

/** The rule code of an issue, from what zod reports about it. */
function codeOf(issue: z.core.$ZodIssue): string {
  const given = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      return given === undefined ? 'missing' : 'wrong_type';
    case 'invalid_value':
      return 'not_allowed';
    case 'invalid_union':
      if (issue.discriminator === undefined) return 'wrong_shape';
      return (given as Record<string, unknown> | undefined)?.[issue.discriminator] === undefined
        ? 'missing'
        : 'not_allowed';
    case 'too_small':
      return issue.origin === 'array' ? 'too_few' : 'too_short';
    case 'too_big':
      return issue.origin === 'array' ? 'too_many' : 'too_long';
    case 'invalid_format':
      return issue.format === 'email' ? 'format_email' : issue.format === 'url' ? 'format_uri' : 'pattern';
    case 'custom':
      return String((issue.params as { code?: unknown } | undefined)?.code ?? 'invalid');
    default:
      return 'invalid';
  }
}

function unknownKey(parent: readonly PropertyKey[], key: string, object: unknown, value: unknown): ManifestIssue {
  const at = formatJsonPath([...parent, key]);
  // A name of a megabyte is said by its start: the message is printed, and told to a terminal on each save.
  const shown = key.length > 100 ? `${formatJsonPath([...parent, key.slice(0, 100)])}… (${key.length} characters)` : at;
  const issue = (message: string, code: string): ManifestIssue => ({
    path: at,
    message: `${shown} ${message}`,
    severity: 'error',
    code,
  });
  const schema = object instanceof z.ZodObject ? object : undefined;
  const rules = schema ? closedObjectRules.get(schema) : undefined;
  // Own keys only: a manifest's `__proto__` or `constructor` would find the table's inherited members.
  const refused = rules?.refused && Object.hasOwn(rules.refused, key) ? rules.refused[key] : undefined;
  if (refused) return issue(refused.message, refused.code);
  const allowed = schema ? Object.keys(schema.shape) : [];
  const near = allowed.find((name) => normalise(name) === normalise(key)) ?? closestName(key, allowed);
  const variantKey = rules?.variantKey;
  const variant =
    variantKey !== undefined
      ? ` when ${formatJsonPath([...parent, variantKey])} is ${show((value as Record<string, unknown>)[variantKey])}`
      : '';
  const fix = near !== undefined ? `did you mean "${near}"? Rename it` : 'remove it';
  return issue(`is not a manifest field${variant}; ${fix} (allowed: ${allowed.join(', ') || 'none'})`, 'unknown_field');
}

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}
