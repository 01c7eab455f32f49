import { checkManifestRelations } from './checkManifestRelations';
import { checkedInputSchemas } from './createInputValidator';
import { isRecord } from './helpers';
import { ManifestError } from './ManifestError';
import type { ManifestIssue } from './ManifestIssue';
import type { Manifest } from './ManifestSchema';
import { parseManifest } from './parseManifest';
import { tooDeepPath } from './tooDeepPath';
import { compareVersions, isVersion, nextPatch } from './version';

/**
 * The deepest a manifest may nest arrays and objects, its top-level object counting as 1 (PACKAGE.md, check 10): a
 * manifest needs about 10 (an action's `input_schema` inside `actions`), and a validator or a host's parser that
 * recurses has a bounded stack.
 * @internal
 */
export const MAX_MANIFEST_DEPTH = 64;

/**
 * Options of {@link validateManifest}.
 * @public
 */
export interface ValidateManifestOptions {
  /** The published version; the manifest's `version` must be higher (compared part by part, as integers). */
  previousVersion?: string;
}

/**
 * What {@link validateManifest} returns: the typed manifest and its warnings, or every issue found.
 * @public
 */
export type ManifestValidationResult =
  | { ok: true; manifest: Manifest; warnings: ManifestIssue[] }
  | { ok: false; issues: ManifestIssue[] };

/**
 * Validates a parsed `manifest.json`: shape, field rules, cross-field rules and, given `previousVersion`, the
 * monotonic version rule.
 *
 * @remarks
 * Never throws for a bad manifest: every problem comes back as an issue with a JSON path and a sentence saying what
 * to fix. Warnings never make `ok` false. An `auth` that writes `mode` instead of `type` gets an issue at
 * `$.auth.mode` and is otherwise checked as if the key were renamed, so all its other problems show at once.
 * @throws RangeError when `options.previousVersion` is not a version (a programming error, not a manifest problem).
 * @example
 * ```ts
 * const result = validateManifest(JSON.parse(text), { previousVersion: '1.2.0' });
 * if (!result.ok) for (const issue of result.issues) console.error(issue.message);
 * ```
 * @public
 */
export function validateManifest(input: unknown, options: ValidateManifestOptions = {}): ManifestValidationResult {
  const { previousVersion } = options;
  if (previousVersion !== undefined && !isVersion(previousVersion)) {
    throw new RangeError(
      `previousVersion "${previousVersion}" is not a version; pass three dot-separated integers such as "1.2.3"`,
    );
  }
  // Before the validator, which recurses: a manifest needs about 10 levels, and one thousands deep would overflow it.
  const deep = tooDeepPath(input, MAX_MANIFEST_DEPTH);
  if (deep !== undefined)
    return {
      ok: false,
      issues: [
        {
          path: deep,
          message: `${deep} nests more than ${MAX_MANIFEST_DEPTH} levels of arrays and objects, the most a manifest may (it needs about 10): flatten it`,
          severity: 'error',
          code: 'too_deep',
        },
      ],
    };
  const issues: ManifestIssue[] = [];
  const candidate = renameModeKey(input, issues);
  const parsed = parseManifest(candidate);
  issues.push(...parsed.issues, ...checkManifestRelations(candidate));

  const version = isRecord(candidate) ? candidate.version : undefined;
  if (
    previousVersion !== undefined &&
    typeof version === 'string' &&
    isVersion(version) &&
    compareVersions(version, previousVersion) <= 0
  ) {
    const relation = version === previousVersion ? 'equals' : 'is lower than';
    issues.push({
      path: '$.version',
      message: `$.version ${version} ${relation} the published version ${previousVersion}; the store only accepts a higher one, such as ${nextPatch(previousVersion)}`,
      severity: 'error',
      code: 'version_not_increased',
    });
  }
  const unique = dedupe(issues);
  if (parsed.success && !unique.some((issue) => issue.severity === 'error')) {
    for (const action of parsed.data.actions ?? []) checkedInputSchemas.add(action.input_schema);
    return { ok: true, manifest: parsed.data, warnings: unique };
  }
  return { ok: false, issues: unique };
}

/**
 * Validates a manifest and returns it typed, or throws.
 * @throws {@link ManifestError} listing every issue when the manifest is invalid.
 * @example
 * ```ts
 * const manifest = assertManifest(JSON.parse(text));
 * ```
 * @public
 */
export function assertManifest(input: unknown, options: ValidateManifestOptions = {}): Manifest {
  const result = validateManifest(input, options);
  if (!result.ok) throw new ManifestError(result.issues);
  return result.manifest;
}

// The auth key is `type` (docs/decisions.md); a manifest that writes `mode` deserves a precise rename instruction
// rather than "unknown key".
function renameModeKey(input: unknown, issues: ManifestIssue[]): unknown {
  if (!isRecord(input) || !isRecord(input.auth) || !('mode' in input.auth)) return input;
  const { mode, ...rest } = input.auth;
  if ('type' in rest) {
    issues.push({
      path: '$.auth.mode',
      message: `$.auth.mode repeats the auth mode, which is carried by "type" alone; remove "mode"`,
      severity: 'error',
      code: 'auth_mode_key',
    });
    return { ...input, auth: rest };
  }
  issues.push({
    path: '$.auth.mode',
    message: `$.auth.mode: the auth mode key is "type", not "mode"; rename the key "mode" to "type" and keep the value: "type": ${JSON.stringify(mode) ?? '"none"'}`,
    severity: 'error',
    code: 'auth_mode_key',
  });
  return { ...input, auth: { type: mode, ...rest } };
}

function dedupe(issues: ManifestIssue[]): ManifestIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
