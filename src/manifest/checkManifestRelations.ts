import { parseCsp } from './checkCsp';
import { checkJsonSchema } from './checkJsonSchema';
import { isRecord, show } from './helpers';
import { formatJsonPath, type ManifestIssue, type ManifestIssueSeverity } from './ManifestIssue';
import { routeKey } from './routeKey';
import { controlCharacters, hiddenCharacter } from './boundedText';

const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * The checks that relate several fields, run on the raw manifest so that they report even when its shape is wrong
 * elsewhere. Each check skips values that are not the expected type: the schema reports those.
 *
 * @remarks
 * Errors: duplicate action names, duplicate route paths, a route parameter with no name, named `route` or given
 * twice, duplicate permission scopes, `default_locale` not in `locales`, an action `route` that is not declared, an
 * action both `read_only` and `destructive`, an `entry` outside the package, a JSON Schema error in `input_schema`.
 * Warnings: everything else below, `frame-ancestors` and a `sandbox` that takes scripts or the page's origin away in
 * `csp` included.
 */
export function checkManifestRelations(input: unknown): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  if (!isRecord(input)) return issues;
  const add = (severity: ManifestIssueSeverity, code: string, path: (string | number)[], message: string): void => {
    const at = formatJsonPath(path);
    issues.push({ path: at, message: `${at} ${message}`, severity, code });
  };
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const field = (item: unknown, key: string): unknown => (isRecord(item) ? item[key] : undefined);

  const duplicates = (
    key: string,
    prop: string | null,
    severity: ManifestIssueSeverity,
    code: string,
    what: string,
    sameAs: (value: string) => string = (value) => value,
  ): void => {
    const seen = new Map<unknown, number>();
    list(input[key]).forEach((item, i) => {
      const value = prop === null ? item : field(item, prop);
      if (typeof value !== 'string') return;
      const first = seen.get(sameAs(value));
      if (first === undefined) seen.set(sameAs(value), i);
      else
        add(
          severity,
          code,
          prop === null ? [key, i] : [key, i, prop],
          `repeats ${what} ${show(value)} of ${formatJsonPath([key, first])}; ${severity === 'error' ? 'give each one a distinct value or remove one' : 'remove the repeat'}`,
        );
    });
  };
  duplicates('actions', 'name', 'error', 'duplicate_action', 'the action name');
  duplicates('routes', 'path', 'error', 'duplicate_route', 'the route path', routeKey);
  duplicates('permissions', 'scope', 'error', 'duplicate_scope', 'the scope');
  duplicates('icons', 'sizes', 'warning', 'duplicate_icon_size', 'the size');
  duplicates('locales', null, 'warning', 'duplicate_locale', 'the locale');
  // A route's parameters become the launch parameters by name: one named `route` is replaced by the matched path, and
  // of a name given twice the app sees the last.
  list(input.routes).forEach((route, i) => {
    const path = field(route, 'path');
    if (typeof path !== 'string') return;
    const names = path
      .split('/')
      .filter((segment) => segment.startsWith(':'))
      .map((segment) => segment.slice(1));
    names.forEach((name, j) => {
      if (name === '')
        add(
          'error',
          'route_parameter_unnamed',
          ['routes', i, 'path'],
          'has a parameter with no name (a ":" alone), which the app would get as "": write a name after the colon, such as :id',
        );
      else if (name === 'route')
        add(
          'error',
          'route_parameter_named_route',
          ['routes', i, 'path'],
          "names a parameter :route, which the launch parameters' route (the path of the route that matched) always replaces: rename it",
        );
      else if (names.indexOf(name) !== j)
        add(
          'error',
          'duplicate_route_parameter',
          ['routes', i, 'path'],
          `names the parameter :${name} twice, and the app would get the last only: rename one`,
        );
    });
  });

  const network = input.network;
  for (const kind of ['connect', 'socket']) {
    const seen = new Set<unknown>();
    list(field(network, kind)).forEach((host, i) => {
      if (seen.has(host))
        add('warning', 'duplicate_host', ['network', kind, i], `repeats the host ${show(host)}; remove the repeat`);
      seen.add(host);
    });
  }
  const distribution = input.distribution;
  const tenants = new Set<unknown>();
  list(field(distribution, 'tenants')).forEach((tenant, i) => {
    if (tenants.has(tenant))
      add(
        'warning',
        'duplicate_tenant',
        ['distribution', 'tenants', i],
        `repeats the tenant ${show(tenant)}; remove the repeat`,
      );
    tenants.add(tenant);
  });

  const locales = Array.isArray(input.locales) ? input.locales : undefined;
  locales?.forEach((locale, i) => {
    if (typeof locale === 'string' && !LOCALE.test(locale))
      add(
        'warning',
        'locale_format',
        ['locales', i],
        `${show(locale)} does not look like a BCP 47 tag; write a language such as "en" or "pt-BR"`,
      );
  });
  const defaultLocale = input.default_locale;
  if (typeof defaultLocale === 'string') {
    if (locales && !locales.includes(defaultLocale)) {
      add(
        'error',
        'default_locale',
        ['default_locale'],
        `${show(defaultLocale)} is not in locales (${locales.map(show).join(', ') || 'empty'}); add it to locales or pick one of them`,
      );
    } else if (!locales)
      add(
        'warning',
        'default_locale_without_locales',
        ['default_locale'],
        `is set but locales is not; add "locales": [${show(defaultLocale)}] and any other supported locale`,
      );
  } else if (locales && locales.length > 1) {
    add(
      'warning',
      'locales_without_default',
      ['locales'],
      `lists ${locales.length} locales but default_locale is missing; add "default_locale" with the one to fall back to`,
    );
  }

  const entry = input.entry;
  if (
    typeof entry === 'string' &&
    (/^[a-z][a-z0-9+.-]*:/i.test(entry) || entry.startsWith('//') || entry.split(/[\\/]/).includes('..'))
  ) {
    add(
      'error',
      'entry_outside_package',
      ['entry'],
      `${show(entry)} points outside the package; write a path inside it, such as "index.html" (all code comes from the signed package)`,
    );
  }
  const name = input.name;
  if (typeof name === 'string' && [...name].length > 20 && input.short_name === undefined) {
    add(
      'warning',
      'short_name_missing',
      ['name'],
      `is ${[...name].length} characters long; add "short_name" (at most 20) for places where the name would be cut`,
    );
  }
  const auth = input.auth;
  const issuer = field(auth, 'issuer');
  if (field(auth, 'type') === 'external-oauth' && typeof issuer === 'string' && /^http:/i.test(issuer)) {
    add(
      'warning',
      'issuer_not_https',
      ['auth', 'issuer'],
      'uses http; OAuth issuers must use https outside local development (RFC 8414)',
    );
  }

  const routes = list(input.routes)
    .map((route) => field(route, 'path'))
    .filter((p) => typeof p === 'string');
  const routeKeys = new Set(routes.map(routeKey));
  list(input.actions).forEach((action, i) => {
    const route = field(action, 'route');
    // Compare the path alone: a query string or fragment does not make a different route.
    const routePath = typeof route === 'string' ? (route.split(/[?#]/)[0] ?? '') : '';
    if (typeof route === 'string' && !routeKeys.has(routeKey(routePath))) {
      add(
        'error',
        'action_route_undeclared',
        ['actions', i, 'route'],
        `${show(route)} is not a declared route; add {"path": ${show(routePath)}, "title": "..."} to routes or use one of ${routes.map(show).join(', ') || 'the declared routes'}`,
      );
    }
    const annotations = field(action, 'annotations');
    if (field(annotations, 'read_only') === true && field(annotations, 'destructive') === true) {
      add(
        'error',
        'annotations_conflict',
        ['actions', i, 'annotations'],
        'declares read_only and destructive together; a read-only action cannot destroy anything, so set one of them to false',
      );
    }
    if (field(annotations, 'destructive') === true && field(action, 'confirm') === 'never') {
      add(
        'warning',
        'destructive_without_confirm',
        ['actions', i, 'confirm'],
        'is "never" on a destructive action, so an agent may run it without asking anyone; use "if_destructive" or "always"',
      );
    }
    for (const [key, closedObjects] of [
      ['input_schema', true],
      ['output_schema', false],
    ] as const) {
      const schema = field(action, key);
      if (!isRecord(schema)) continue;
      // The one JSON Schema check of each schema: output_schema is free-form, so its problems only warn.
      for (const problem of checkJsonSchema(schema, { closedObjects })) {
        const severity = key === 'input_schema' ? problem.severity : 'warning';
        add(severity, problem.code, ['actions', i, key, ...problem.path], problem.message);
      }
      // Its titles, descriptions and choices' labels are the app's words to agents (tools/list), as the action's own.
      for (const { path, text, lines } of schemaWords(schema)) {
        const where = ['actions', i, key, ...path];
        for (const problem of controlCharacters(text, lines)) add('error', 'control_character', where, problem);
        const hidden = hiddenCharacter(text);
        if (hidden) add('error', 'hidden_character', where, hidden);
      }
    }
  });
  // Who may frame the app is the platform's to say (frame-ancestors with the messenger's origins); one of the app's
  // own can only narrow it, and 'none' or 'self' keep every web messenger from showing the app at all.
  const csp = typeof input.csp === 'string' ? parseCsp(input.csp) : undefined;
  const frameAncestors = csp?.get('frame-ancestors');
  if (frameAncestors)
    add(
      'warning',
      'csp_frame_ancestors',
      ['csp'],
      `sets "frame-ancestors ${frameAncestors.join(' ')}", and the platform sets who may frame the app (its messenger's origins): a web messenger that this list leaves out shows an empty frame; remove frame-ancestors from csp`,
    );
  // A sandbox without scripts, or without the page's own origin (an opaque one, which no host can name), cuts the
  // page off its host: the bridge needs both.
  const sandbox = csp?.get('sandbox')?.map((token) => token.toLowerCase());
  if (sandbox && !(sandbox.includes('allow-scripts') && sandbox.includes('allow-same-origin')))
    add(
      'warning',
      'csp_sandbox',
      ['csp'],
      `sets "sandbox${sandbox.length ? ` ${sandbox.join(' ')}` : ''}" without allow-scripts and allow-same-origin: the page loses its scripts or its own origin, and then its module scripts fail to load and svc cannot reach its host; remove sandbox from csp`,
    );
  return issues;
}

/**
 * The words of a JSON Schema shown to people and agents, where, and whether they may hold lines: each `title`,
 * `description` (lines) and `enumNames` label, and each property's name (an agent reads it in tools/list, and sends
 * it back).
 */
function schemaWords(schema: unknown): { path: (string | number)[]; text: string; lines: boolean }[] {
  const words: { path: (string | number)[]; text: string; lines: boolean }[] = [];
  const stack: [unknown, (string | number)[]][] = [[schema, []]];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) stack.push([item, [...path, i]]);
      continue;
    }
    if (!isRecord(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'title' || key === 'description') && typeof value === 'string')
        words.push({ path: [...path, key], text: value, lines: key === 'description' });
      else if (key === 'enumNames' && Array.isArray(value)) {
        for (const [i, label] of value.entries())
          if (typeof label === 'string') words.push({ path: [...path, key, i], text: label, lines: false });
      } else {
        if (key === 'properties' && isRecord(value))
          for (const name of Object.keys(value)) words.push({ path: [...path, key, name], text: name, lines: false });
        stack.push([value, [...path, key]]);
      }
    }
  }
  return words;
}
