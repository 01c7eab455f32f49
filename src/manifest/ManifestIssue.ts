/**
 * How serious a manifest issue is.
 *
 * @remarks
 * An `error` makes the manifest invalid (the store would reject it, or the runtime would misbehave); a `warning`
 * points at something that is allowed but probably a mistake, and never fails validation.
 * @public
 */
export type ManifestIssueSeverity = 'error' | 'warning';

/**
 * One problem found in a manifest.
 *
 * @example
 * ```ts
 * const issue: ManifestIssue = {
 *   path: '$.vendor.website',
 *   message: '$.vendor.website is not a manifest field; remove it (allowed: id, name, contact, support_url)',
 *   severity: 'error',
 *   code: 'unknown_field',
 * };
 * ```
 * @public
 */
export interface ManifestIssue {
  /** JSON path of the offending value, such as `$.actions[0].name`. `$` is the whole manifest. */
  path: string;
  /** A sentence that names the field and says what to write instead. It starts with {@link ManifestIssue.path}. */
  message: string;
  /** Whether the issue fails validation. */
  severity: ManifestIssueSeverity;
  /** A stable identifier of the rule (`too_short`, `csp_script_src`, `duplicate_action`, ...), for tools and tests. */
  code: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Writes a path of keys and indexes as a JSON path: `['actions', 0, 'name']` becomes `$.actions[0].name`.
 * @public
 */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
