import { describe, expect, test } from 'vitest';
import { validateManifest } from '../../src/manifest';
import { errorsAfter, type Json, validManifest } from './fixtures';

const text = (n: number, char = 'a'): string => char.repeat(n);

// [rule, a change that keeps the manifest valid, a change that breaks it, the path and code of the error]
const cases: [string, (m: Json) => void, (m: Json) => void, string][] = [
  [
    'manifest_version is 1',
    (m) => (m.manifest_version = 1),
    (m) => (m.manifest_version = 2),
    '$.manifest_version not_allowed',
  ],
  ['id is 16 lowercase hex', (m) => (m.id = 'abcdef0123456789'), (m) => (m.id = 'ABCDEF0123456789'), '$.id pattern'],
  ['id has exactly 16 characters', (m) => (m.id = '0'.repeat(16)), (m) => (m.id = '0'.repeat(15)), '$.id pattern'],
  ['name is at most 60', (m) => (m.name = text(60)), (m) => (m.name = text(61)), '$.name too_long'],
  ['name is at least 1', (m) => (m.name = 'a'), (m) => (m.name = ''), '$.name too_short'],
  ['name counts code points', (m) => (m.name = text(60, '🍕')), (m) => (m.name = text(61, '🍕')), '$.name too_long'],
  [
    'short_name is at most 20',
    (m) => (m.short_name = text(20)),
    (m) => (m.short_name = text(21)),
    '$.short_name too_long',
  ],
  ['version is three integers', (m) => (m.version = '10.0.0'), (m) => (m.version = '1.0'), '$.version pattern'],
  ['version has no leading zeros', (m) => (m.version = '0.0.1'), (m) => (m.version = '01.0.0'), '$.version pattern'],
  ['version has no pre-release', (m) => (m.version = '2.3.4'), (m) => (m.version = '1.0.0-beta'), '$.version pattern'],
  [
    'description is at least 10',
    (m) => (m.description = text(10)),
    (m) => (m.description = text(9)),
    '$.description too_short',
  ],
  [
    'description is at most 300',
    (m) => (m.description = text(300)),
    (m) => (m.description = text(301)),
    '$.description too_long',
  ],
  ['icons has at least 2', () => {}, (m) => m.icons.pop(), '$.icons too_few'],
  [
    'icon sizes is WxH',
    (m) => (m.icons[0].sizes = '1x1'),
    (m) => (m.icons[0].sizes = '192'),
    '$.icons[0].sizes pattern',
  ],
  [
    'icon sizes is digits only',
    (m) => (m.icons[0].sizes = '48x48'),
    (m) => (m.icons[0].sizes = '48X48'),
    '$.icons[0].sizes pattern',
  ],
  [
    'icon type is png or webp',
    (m) => (m.icons[0].type = 'image/webp'),
    (m) => (m.icons[0].type = 'image/svg+xml'),
    '$.icons[0].type not_allowed',
  ],
  ['icon src is required', () => {}, (m) => delete m.icons[1].src, '$.icons[1].src missing'],
  [
    'vendor contact is an e-mail',
    (m) => (m.vendor.contact = 'a.b@c.example'),
    (m) => (m.vendor.contact = 'acme.example'),
    '$.vendor.contact format_email',
  ],
  [
    'vendor support_url is a URI',
    (m) => delete m.vendor.support_url,
    (m) => (m.vendor.support_url = 'acme support'),
    '$.vendor.support_url format_uri',
  ],
  ['vendor id is required', () => {}, (m) => delete m.vendor.id, '$.vendor.id missing'],
  [
    'distribution store',
    (m) => (m.distribution = { channel: 'store' }),
    (m) => (m.distribution = { channel: 'public' }),
    '$.distribution.channel not_allowed',
  ],
  [
    'distribution tenants has at least 1',
    (m) => (m.distribution = { channel: 'tenant-private', tenants: ['t1'] }),
    (m) => (m.distribution = { channel: 'tenant-private', tenants: [] }),
    '$.distribution.tenants too_few',
  ],
  [
    'tenant-private needs tenants',
    (m) => delete m.distribution,
    (m) => (m.distribution = { channel: 'tenant-private' }),
    '$.distribution.tenants missing',
  ],
  [
    'distribution is never both',
    (m) => (m.distribution = { channel: 'store' }),
    (m) => (m.distribution = { channel: 'store', tenants: ['t1'] }),
    '$.distribution.tenants distribution_both',
  ],
  [
    'age_rating is an allowed value',
    (m) => (m.age_rating = '17+'),
    (m) => (m.age_rating = '18+'),
    '$.age_rating not_allowed',
  ],
  ['entry is required', () => {}, (m) => delete m.entry, '$.entry missing'],
  [
    'routes has at least 1',
    (m) => m.routes.pop() && m.actions[0] && delete m.actions[0].route,
    (m) => {
      m.routes = [];
      delete m.actions;
    },
    '$.routes too_few',
  ],
  [
    'route path starts with /',
    (m) => (m.routes[0].path = '/a'),
    (m) => (m.routes[0].path = 'home'),
    '$.routes[0].path pattern',
  ],
  ['route title is required', () => {}, (m) => delete m.routes[0].title, '$.routes[0].title missing'],
  ['permissions may be empty', (m) => (m.permissions = []), (m) => delete m.permissions, '$.permissions missing'],
  [
    'permission scope is from the list',
    (m) => (m.permissions[0].scope = 'svc.directory.search'),
    (m) => (m.permissions[0].scope = 'room.context'),
    '$.permissions[0].scope not_allowed',
  ],
  [
    'permission purpose is at least 10',
    (m) => (m.permissions[0].purpose = text(10)),
    (m) => (m.permissions[0].purpose = text(9)),
    '$.permissions[0].purpose too_short',
  ],
  [
    'permission purpose is at most 200',
    (m) => (m.permissions[0].purpose = text(200)),
    (m) => (m.permissions[0].purpose = text(201)),
    '$.permissions[0].purpose too_long',
  ],
  [
    'permission optional is a boolean',
    (m) => delete m.permissions[0].optional,
    (m) => (m.permissions[0].optional = 'yes'),
    '$.permissions[0].optional wrong_type',
  ],
  [
    'network hosts are bare',
    (m) => (m.network.connect = ['a.b']),
    (m) => (m.network.connect = ['https://a.b']),
    '$.network.connect[0] pattern',
  ],
  [
    'network hosts have two labels',
    (m) => (m.network.socket = ['x.io']),
    (m) => (m.network.socket = ['localhost']),
    '$.network.socket[0] pattern',
  ],
  ['network lists are optional', (m) => (m.network = {}), (m) => delete m.network, '$.network missing'],
  [
    'csp has object-src none',
    (m) => (m.csp = "script-src 'self'; object-src 'none'"),
    (m) => (m.csp = "script-src 'self'"),
    '$.csp csp_object_src',
  ],
  [
    'csp script-src is self only',
    (m) => (m.csp = "SCRIPT-SRC 'self'; object-src 'none'"),
    (m) => (m.csp = "script-src 'self' 'unsafe-eval'; object-src 'none'"),
    '$.csp csp_script_src',
  ],
  [
    'auth svc-exchange needs audience',
    (m) => delete m.auth.scopes,
    (m) => delete m.auth.audience,
    '$.auth.audience missing',
  ],
  [
    'auth external-oauth needs issuer',
    (m) => (m.auth = { type: 'external-oauth', issuer: 'https://id.example.com', client_id: 'c' }),
    (m) => (m.auth = { type: 'external-oauth', client_id: 'c' }),
    '$.auth.issuer missing',
  ],
  [
    'auth issuer is a URI',
    (m) => (m.auth = { type: 'external-oauth', issuer: 'https://id.example.com/realms/x', client_id: 'c' }),
    (m) => (m.auth = { type: 'external-oauth', issuer: 'id.example.com', client_id: 'c' }),
    '$.auth.issuer format_uri',
  ],
  [
    'auth external-oauth needs client_id',
    () => {},
    (m) => (m.auth = { type: 'external-oauth', issuer: 'https://id.example.com' }),
    '$.auth.client_id missing',
  ],
  [
    'auth none has no fields',
    (m) => (m.auth = { type: 'none' }),
    (m) => (m.auth = { type: 'none', audience: 'x' }),
    '$.auth.audience unknown_field',
  ],
  ['auth type is one of three', () => {}, (m) => (m.auth = { type: 'oauth' }), '$.auth.type not_allowed'],
  ['auth type is required', () => {}, (m) => (m.auth = { audience: 'x' }), '$.auth.type missing'],
  ['auth scopes are strings', (m) => (m.auth.scopes = []), (m) => (m.auth.scopes = [1]), '$.auth.scopes[0] wrong_type'],
  ['actions are optional', (m) => delete m.actions, (m) => (m.actions = {}), '$.actions wrong_type'],
  [
    'action name is snake case',
    (m) => (m.actions[0].name = 'a1_b'),
    (m) => (m.actions[0].name = '1a'),
    '$.actions[0].name pattern',
  ],
  [
    'action title is at most 60',
    (m) => (m.actions[0].title = text(60)),
    (m) => (m.actions[0].title = text(61)),
    '$.actions[0].title too_long',
  ],
  [
    'action description is at least 30',
    (m) => (m.actions[0].description = text(30)),
    (m) => (m.actions[0].description = text(29)),
    '$.actions[0].description too_short',
  ],
  [
    'action route is optional',
    (m) => delete m.actions[0].route,
    (m) => (m.actions[0].route = 3),
    '$.actions[0].route wrong_type',
  ],
  [
    'action input_schema is required',
    () => {},
    (m) => delete m.actions[0].input_schema,
    '$.actions[0].input_schema missing',
  ],
  [
    'action output_schema is free-form',
    (m) => (m.actions[0].output_schema = { anything: true }),
    (m) => (m.actions[0].output_schema = 'x'),
    '$.actions[0].output_schema wrong_type',
  ],
  [
    'action annotations are all required',
    () => {},
    (m) => delete m.actions[0].annotations.open_world,
    '$.actions[0].annotations.open_world missing',
  ],
  [
    'action annotations are booleans',
    () => {},
    (m) => (m.actions[0].annotations.read_only = 'no'),
    '$.actions[0].annotations.read_only wrong_type',
  ],
  [
    'action confirm is a floor value',
    (m) => (m.actions[0].confirm = 'if_destructive'),
    (m) => (m.actions[0].confirm = 'sometimes'),
    '$.actions[0].confirm not_allowed',
  ],
  [
    'no $schema key (a manifest allows no extra property)',
    () => {},
    (m) => (m.$schema = './node_modules/svc-sdk/schema/manifest.schema.json'),
    '$.$schema schema_key',
  ],
  [
    'vendor support_url is http(s) only',
    (m) => (m.vendor.support_url = 'http://acme.example/help'),
    (m) => (m.vendor.support_url = 'ftp://acme.example/help'),
    '$.vendor.support_url format_uri',
  ],
  [
    'vendor support_url is not javascript:',
    () => {},
    (m) => (m.vendor.support_url = 'javascript:alert(1)'),
    '$.vendor.support_url format_uri',
  ],
  ['no field beyond the list', () => {}, (m) => (m.homepage = 'x'), '$.homepage unknown_field'],
  ['no field beyond the list in vendor', () => {}, (m) => (m.vendor.website = 'x'), '$.vendor.website unknown_field'],
  [
    'no field beyond the list in icons',
    () => {},
    (m) => (m.icons[0].purpose = 'any'),
    '$.icons[0].purpose unknown_field',
  ],
  ['no field beyond the list in routes', () => {}, (m) => (m.routes[0].icon = 'x'), '$.routes[0].icon unknown_field'],
  [
    'no field beyond the list in permissions',
    () => {},
    (m) => (m.permissions[0].reason = 'x'),
    '$.permissions[0].reason unknown_field',
  ],
  ['no field beyond the list in network', () => {}, (m) => (m.network.fetch = []), '$.network.fetch unknown_field'],
  ['no field beyond the list in actions', () => {}, (m) => (m.actions[0].tags = []), '$.actions[0].tags unknown_field'],
  [
    'no field beyond the list in annotations',
    () => {},
    (m) => (m.actions[0].annotations.safe = true),
    '$.actions[0].annotations.safe unknown_field',
  ],
];

describe('field rules', () => {
  test.each(cases)('%s', (_rule, keep, breakIt, expected) => {
    expect(errorsAfter(keep)).toEqual([]);
    expect(errorsAfter(breakIt)).toContain(expected);
  });

  test('the valid fixture is valid and typed, with defaults applied', () => {
    const result = validateManifest(validManifest());
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.warnings).toEqual([]);
      expect(result.manifest.permissions[0]?.scope).toBe('svc.room.context');
    }
    const m: Json = validManifest();
    delete m.permissions[0].optional;
    const defaulted = validateManifest(m);
    expect(defaulted.ok && defaulted.manifest.permissions[0]?.optional).toBe(false);
  });

  test('content inside input_schema and output_schema is not checked for unknown fields', () => {
    expect(errorsAfter((m) => (m.actions[0].output_schema = { 'x-anything': { deep: [1] } }))).toEqual([]);
    expect(errorsAfter((m) => (m.actions[0].input_schema.properties.pizza['x-ui'] = 'radio'))).toEqual([]);
  });

  test('a manifest that is not an object gets one clear issue', () => {
    const result = validateManifest([]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues[0]?.message).toBe('$ must be a JSON object (the manifest); got an array');
  });
});

describe('a manifest nested too deep', () => {
  test('is refused with one issue naming where, not a stack overflow: the validator recurses, so depth is asked first', () => {
    let input: unknown = [];
    for (let i = 0; i < 20_000; i++) input = [input];
    const result = validateManifest({ ...validManifest(), x: input });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ code: 'too_deep', severity: 'error' });
    expect(result.issues[0]!.message).toMatch(/^\$\.x(\[0\])+ nests more than 64 levels of arrays and objects/);
    // 64 levels are a manifest's to use (a deep input_schema); the rest of the rules then apply as usual.
    let fits: unknown = {};
    for (let i = 0; i < 62; i++) fits = { a: fits };
    expect(validateManifest({ ...validManifest(), x: fits }).ok).toBe(false);
    expect(
      (validateManifest({ ...validManifest(), x: fits }) as { issues: { code: string }[] }).issues.map((i) => i.code),
    ).not.toContain('too_deep');
  });
});
