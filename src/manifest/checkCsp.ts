import { characterAt, codePointName } from './helpers';
/**
 * One CSP rule violation: a stable code and a sentence saying what to write instead.
 * @public
 */
export interface CspProblem {
  /** `csp_empty`, `csp_not_ascii`, `csp_object_src`, `csp_script_src` or `csp_duplicate_directive`. */
  code: string;
  /** What is wrong and what to write instead, worded to follow the field name (`$.csp must ...`). */
  message: string;
}

/**
 * What separates a directive's name and sources: ASCII whitespace alone, as browsers split a policy. A no-break space
 * is part of a token, so `object-src\u00a0'none'` is one unknown directive to a browser, not `object-src`.
 */
const ASCII_WHITESPACE = /[\t\n\f\r ]+/;

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
    const [name, ...sources] = part.split(ASCII_WHITESPACE).filter(Boolean);
    if (name === undefined) continue;
    const key = name.toLowerCase();
    if (!directives.has(key)) directives.set(key, sources);
  }
  return directives;
}

/**
 * Checks the manifest rules for `csp`: `object-src 'none'`, a `script-src` of exactly `'self'` (required: a
 * `default-src` does not stand in for it), and the same rule in every other directive that governs scripts when
 * present: `default-src` while `script-src` is missing, and `script-src-elem`, `script-src-attr` and `worker-src`
 * (`'none'` is allowed there).
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
  // A policy is ASCII: a browser reads any other character as part of a name or source none of its rules know.
  const odd = /[^\x20-\x7e\t]/u.exec(csp);
  if (odd) {
    const at = characterAt(csp, odd.index);
    problems.push({
      code: 'csp_not_ascii',
      message: `holds ${JSON.stringify(odd[0])} (${codePointName(odd[0])}) at character ${at}: a policy is ASCII; write plain spaces and ASCII text`,
    });
  }
  const seen = new Set<string>();
  for (const part of csp.split(';')) {
    const name = part.split(ASCII_WHITESPACE).find(Boolean)?.toLowerCase();
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
    problems.push({
      code: 'csp_object_src',
      message: `must contain "object-src 'none'"; add it (plugins are never allowed)`,
    });
  } else if (!(objectSrc.length === 1 && objectSrc[0]?.toLowerCase() === "'none'")) {
    problems.push({
      code: 'csp_object_src',
      message: `must set object-src to exactly 'none'; replace "object-src ${objectSrc.join(' ')}" with "object-src 'none'"`,
    });
  }
  const scriptSrc = directives.get('script-src');
  const defaultSrc = directives.get('default-src');
  if (scriptSrc === undefined) {
    // The rule names script-src itself: a default-src fallback, however strict, does not stand in for it.
    problems.push({
      code: 'csp_script_src',
      message: `must contain a script-src of 'self' only; add "script-src 'self'" (all code comes from the signed package)`,
    });
    // Until script-src is added, browsers fall back to default-src for scripts, so it must hold the rule too.
    if (defaultSrc !== undefined)
      problems.push(...onlySelf('default-src', defaultSrc, ' (with no script-src, it governs scripts)'));
  } else {
    problems.push(...onlySelf('script-src', scriptSrc, ''));
  }
  // The finer directives override script-src for elements, inline attributes and workers: each must hold the rule
  // too ('none' is stricter, so it passes).
  for (const name of ['script-src-elem', 'script-src-attr', 'worker-src']) {
    const sources = directives.get(name);
    if (sources !== undefined && !(sources.length === 1 && sources[0]?.toLowerCase() === "'none'"))
      problems.push(...onlySelf(name, sources, ''));
  }
  return problems;
}

function onlySelf(name: string, sources: string[], after: string): CspProblem[] {
  const extra = sources.filter((source) => source.toLowerCase() !== "'self'");
  if (extra.length === 0 && sources.length === 1) return [];
  const what = extra.length > 0 ? `remove ${extra.join(' ')}` : `write "${name} 'self'" once`;
  // WebAssembly is compiled from bytes, which an app may fetch from any host it may reach: code not in the package.
  const wasm = extra.some((source) => source.toLowerCase() === "'wasm-unsafe-eval'")
    ? "; 'wasm-unsafe-eval' would let the app compile WebAssembly fetched from any host it reaches, so a mini app runs no WebAssembly"
    : '';
  return [
    {
      code: 'csp_script_src',
      message: `must set ${name} to exactly 'self'; ${what} (all code comes from the signed package${wasm})${after}`,
    },
  ];
}
