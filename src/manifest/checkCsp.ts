/**
 * One CSP rule violation: a stable code and a sentence saying what to write instead.
 * @public
 */
export interface CspProblem {
  /** `csp_empty`, `csp_object_src`, `csp_script_src` or `csp_duplicate_directive`. */
  code: string;
  /** What is wrong and what to write instead, worded to follow the field name (`$.csp must ...`). */
  message: string;
}

/**
 * Splits a content security policy into its directives: lowercase name to its list of sources.
 *
 * @remarks
 * Directives are separated by `;`, names are case-insensitive, and, as in browsers, only the first occurrence of a
 * directive counts; later duplicates are reported by {@link checkCsp} rather than silently ignored.
 * @public
 */
export function parseCsp(csp: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    if (name === undefined) continue;
    const key = name.toLowerCase();
    if (!directives.has(key)) directives.set(key, sources);
  }
  return directives;
}

/**
 * Checks the manifest rules for `csp`: `object-src 'none'` and a `script-src` of exactly `'self'`.
 *
 * @example
 * ```ts
 * checkCsp("script-src 'self' https://cdn.example.com"); // two problems: object-src missing, a remote host
 * ```
 * @public
 */
export function checkCsp(csp: string): CspProblem[] {
  const problems: CspProblem[] = [];
  if (csp.trim() === '') {
    return [{ code: 'csp_empty', message: `is empty; write at least "script-src 'self'; object-src 'none'"` }];
  }
  const seen = new Set<string>();
  for (const part of csp.split(';')) {
    const name = part.trim().split(/\s+/)[0]?.toLowerCase();
    if (!name) continue;
    if (seen.has(name)) {
      problems.push({
        code: 'csp_duplicate_directive',
        message: `declares ${name} more than once and browsers ignore every occurrence after the first; keep one ${name}`,
      });
    }
    seen.add(name);
  }
  const directives = parseCsp(csp);
  const objectSrc = directives.get('object-src');
  if (objectSrc === undefined) {
    problems.push({ code: 'csp_object_src', message: `must contain "object-src 'none'"; add it (plugins are never allowed)` });
  } else if (!(objectSrc.length === 1 && objectSrc[0]?.toLowerCase() === "'none'")) {
    problems.push({
      code: 'csp_object_src',
      message: `must set object-src to exactly 'none'; replace "object-src ${objectSrc.join(' ')}" with "object-src 'none'"`,
    });
  }
  const scriptSrc = directives.get('script-src');
  if (scriptSrc === undefined) {
    problems.push({
      code: 'csp_script_src',
      message: `must contain "script-src 'self'"; add it (all code comes from the signed package)`,
    });
  } else {
    const extra = scriptSrc.filter((source) => source.toLowerCase() !== "'self'");
    if (extra.length > 0 || scriptSrc.length !== 1) {
      const what = extra.length > 0 ? `remove ${extra.join(' ')}` : `write "script-src 'self'" once`;
      problems.push({
        code: 'csp_script_src',
        message: `must set script-src to exactly 'self'; ${what} (all code comes from the signed package)`,
      });
    }
  }
  return problems;
}
