import { describe, expect, test } from 'vitest';
import { validateManifest } from '../../src/manifest';
import { errorsAfter, issuesAfter, type Json, validManifest } from './fixtures';

const warningsAfter = (mutate: (m: Json) => void): string[] =>
  issuesAfter(mutate)
    .filter((i) => i.severity === 'warning')
    .map((i) => `${i.path} ${i.code}`);

const action = (name: string, extra: Json = {}): Json => ({ ...validManifest().actions?.[0], name, ...extra });

describe('cross-field errors', () => {
  test('duplicate action names are an error at the repeat', () => {
    expect(errorsAfter((m) => m.actions.push(action('other')))).toEqual([]);
    expect(errorsAfter((m) => m.actions.push(action('create_order')))).toEqual(['$.actions[1].name duplicate_action']);
  });
  test('duplicate route paths are an error', () => {
    expect(errorsAfter((m) => m.routes.push({ path: '/x', title: 'X' }))).toEqual([]);
    expect(errorsAfter((m) => m.routes.push({ path: '/orders', title: 'Again' }))).toEqual([
      '$.routes[2].path duplicate_route',
    ]);
  });
  test('duplicate permission scopes are an error', () => {
    const permission = { scope: 'svc.room.context', purpose: 'Again, for the same reason.' };
    expect(errorsAfter((m) => m.permissions.push({ ...permission, scope: 'svc.storage' }))).toEqual([]);
    expect(errorsAfter((m) => m.permissions.push(permission))).toEqual(['$.permissions[1].scope duplicate_scope']);
  });
  test('default_locale must be one of locales', () => {
    expect(errorsAfter((m) => (m.default_locale = 'de-CH'))).toEqual([]);
    expect(errorsAfter((m) => (m.default_locale = 'fr'))).toEqual(['$.default_locale default_locale']);
  });
  test('an action route must be declared; query and fragment are ignored', () => {
    expect(errorsAfter((m) => (m.actions[0].route = '/orders?new=1'))).toEqual([]);
    expect(errorsAfter((m) => (m.actions[0].route = '/checkout'))).toEqual([
      '$.actions[0].route action_route_undeclared',
    ]);
  });
  test('an action cannot be read_only and destructive', () => {
    expect(errorsAfter((m) => (m.actions[0].annotations.destructive = true))).toEqual([]);
    expect(errorsAfter((m) => Object.assign(m.actions[0].annotations, { read_only: true, destructive: true }))).toEqual(
      ['$.actions[0].annotations annotations_conflict'],
    );
  });
  test('entry must stay inside the package', () => {
    expect(errorsAfter((m) => (m.entry = 'app/index.html'))).toEqual([]);
    for (const entry of ['https://cdn.example.com/app.html', '//cdn.example.com/a.html', '../index.html']) {
      expect(errorsAfter((m) => (m.entry = entry))).toEqual(['$.entry entry_outside_package']);
    }
  });
  test('the version must be higher than the previous one, compared as integers', () => {
    expect(errorsAfter((m) => (m.version = '1.10.0'), { previousVersion: '1.9.0' })).toEqual([]);
    expect(errorsAfter((m) => (m.version = '1.2.3'), { previousVersion: '1.2.3' })).toEqual([
      '$.version version_not_increased',
    ]);
    expect(errorsAfter((m) => (m.version = '1.9.0'), { previousVersion: '1.10.0' })).toEqual([
      '$.version version_not_increased',
    ]);
    expect(issuesAfter((m) => (m.version = '1.2.3'), { previousVersion: '1.2.3' })[0]?.message).toBe(
      '$.version 1.2.3 equals the published version 1.2.3; the store only accepts a higher one, such as 1.2.4',
    );
  });
  test('a previousVersion that is not a version is a programming error', () => {
    expect(() => validateManifest(validManifest(), { previousVersion: 'latest' })).toThrow(RangeError);
  });
});

describe('cross-field warnings never fail validation', () => {
  const cases: [string, (m: Json) => void, string][] = [
    ['duplicate icon sizes', (m) => (m.icons[1].sizes = '192x192'), '$.icons[1].sizes duplicate_icon_size'],
    ['duplicate locales', (m) => m.locales.push('en'), '$.locales[2] duplicate_locale'],
    ['a locale that is not BCP 47', (m) => m.locales.push('english'), '$.locales[2] locale_format'],
    ['several locales and no default_locale', (m) => delete m.default_locale, '$.locales locales_without_default'],
    ['default_locale without locales', (m) => delete m.locales, '$.default_locale default_locale_without_locales'],
    ['duplicate hosts', (m) => m.network.connect.push('api.acme.example'), '$.network.connect[1] duplicate_host'],
    [
      'duplicate tenants',
      (m) => (m.distribution = { channel: 'tenant-private', tenants: ['a', 'a'] }),
      '$.distribution.tenants[1] duplicate_tenant',
    ],
    [
      'a long name without short_name',
      (m) => {
        m.name = 'A name longer than twenty';
        delete m.short_name;
      },
      '$.name short_name_missing',
    ],
    [
      'an http issuer',
      (m) => (m.auth = { type: 'external-oauth', issuer: 'http://localhost:8080/realms/dev', client_id: 'c' }),
      '$.auth.issuer issuer_not_https',
    ],
    [
      'a destructive action that never confirms',
      (m) =>
        Object.assign(m.actions[0], {
          confirm: 'never',
          annotations: { ...m.actions[0].annotations, destructive: true },
        }),
      '$.actions[0].confirm destructive_without_confirm',
    ],
    [
      'a nested open object in input_schema',
      (m) => (m.actions[0].input_schema.properties.address = { type: 'object', properties: {} }),
      '$.actions[0].input_schema.properties.address input_schema_open_object',
    ],
    [
      'an unknown keyword in input_schema',
      (m) => (m.actions[0].input_schema.properties.pizza.requird = true),
      '$.actions[0].input_schema.properties.pizza.requird json_schema_unknown_keyword',
    ],
    [
      'frame-ancestors in csp, which the platform sets',
      (m) => (m.csp = `${m.csp}; frame-ancestors 'none'`),
      '$.csp csp_frame_ancestors',
    ],
    [
      'a sandbox in csp that takes the page its own origin',
      (m) => (m.csp = `${m.csp}; sandbox allow-scripts`),
      '$.csp csp_sandbox',
    ],
    [
      'a broken output_schema',
      (m) => (m.actions[0].output_schema.required = 'order_id'),
      '$.actions[0].output_schema.required json_schema',
    ],
  ];
  test.each(cases)('%s', (_name, mutate, expected) => {
    expect(warningsAfter(() => {})).toEqual([]);
    expect(errorsAfter(mutate)).toEqual([]);
    expect(warningsAfter(mutate)).toContain(expected);
    const m: Json = validManifest();
    mutate(m);
    const result = validateManifest(m);
    expect(result.ok).toBe(true);
  });
});
