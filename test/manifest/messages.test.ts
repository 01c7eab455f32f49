import { describe, expect, test } from 'vitest';
import { issuesAfter, type Json } from './fixtures';

const messageAt = (mutate: (m: Json) => void, path: string): string | undefined =>
  issuesAfter(mutate).find((i) => i.path === path)?.message;

describe('messages name the field and say what to write instead', () => {
  test('an unknown field lists the allowed ones', () => {
    expect(messageAt((m) => (m.vendor.website = 'x'), '$.vendor.website')).toBe(
      '$.vendor.website is not a manifest field; remove it (allowed: id, name, contact, support_url)',
    );
  });
  test('an unknown field of a million characters is said by its start and its length (measured against no name)', () => {
    const name = `unknownField${'X'.repeat(1_000_000)}`;
    const message = messageAt((m) => (m[name] = 1), `$.${name}`)!;
    expect(
      message.startsWith(`$.unknownField${'X'.repeat(88)}… (1000012 characters) is not a manifest field; remove it`),
    ).toBe(true);
  });
  test('a misspelt field gets the right spelling', () => {
    expect(messageAt((m) => (m.shortName = 'x'), '$.shortName')).toMatch(/did you mean "short_name"\? Rename it/);
  });
  test('a mistyped field gets a did-you-mean by edit distance', () => {
    const renamed = (m: any) => {
      m.descripton = m.description;
      delete m.description;
    };
    expect(messageAt(renamed, '$.descripton')).toMatch(/did you mean "description"\? Rename it/);
    expect(messageAt((m) => (m.vendor.contakt = 'x'), '$.vendor.contakt')).toMatch(/did you mean "contact"\?/);
    expect(messageAt((m) => (m.routes[0].titel = 'x'), '$.routes[0].titel')).toMatch(/did you mean "title"\?/);
  });
  test('a short bridge scope where a manifest scope is expected gets the manifest name', () => {
    expect(messageAt((m) => (m.permissions[0].scope = 'room.context'), '$.permissions[0].scope')).toMatch(
      /did you mean "svc.room.context"\?/,
    );
    expect(messageAt((m) => (m.permissions[0].scope = 'room.send'), '$.permissions[0].scope')).toMatch(
      /did you mean "svc.message.send"\?/,
    );
    // Written as a manifest scope is, with svc. before the bridge's name.
    expect(messageAt((m) => (m.permissions[0].scope = 'svc.room.send'), '$.permissions[0].scope')).toMatch(
      /did you mean "svc.message.send"\?/,
    );
    expect(messageAt((m) => (m.permissions[0].scope = 'svc.notification'), '$.permissions[0].scope')).toMatch(
      /did you mean "svc.notifications"\?/,
    );
  });
  test('a $schema key says why it is refused and where the schema goes instead', () => {
    expect(messageAt((m) => (m.$schema = 'x'), '$.$schema')).toMatch(
      /allows no properties beyond those listed.*\.vscode\/settings\.json/,
    );
  });
  test('an unknown field inside an auth shape names the shape', () => {
    expect(messageAt((m) => (m.auth.issuer = 'https://x.example'), '$.auth.issuer')).toBe(
      '$.auth.issuer is not a manifest field when $.auth.type is "svc-exchange"; remove it (allowed: type, audience, scopes)',
    );
  });
  test('a bad enum value lists the allowed values and fixes the case', () => {
    expect(messageAt((m) => (m.age_rating = '18+'), '$.age_rating')).toBe(
      '$.age_rating must be one of "4+", "9+", "12+", "17+"; got "18+"',
    );
    expect(messageAt((m) => (m.actions[0].confirm = 'Always'), '$.actions[0].confirm')).toMatch(/; write "always"$/);
  });
  test('a too short or too long string gives the limit and the actual length', () => {
    expect(messageAt((m) => (m.description = 'Too short'), '$.description')).toBe(
      '$.description must be at least 10 characters long; it has 9, so add 1 more',
    );
    expect(messageAt((m) => (m.name = 'x'.repeat(61)), '$.name')).toBe(
      '$.name must be at most 60 characters long; it has 61, so shorten it by 1',
    );
  });
  test('a missing field is described', () => {
    expect(messageAt((m) => delete m.vendor.contact, '$.vendor.contact')).toBe(
      '$.vendor.contact is required; add "contact" (E-mail address where the store and users reach the vendor)',
    );
  });
  test('both distribution shapes at once', () => {
    expect(messageAt((m) => (m.distribution = { channel: 'store', tenants: ['t'] }), '$.distribution.tenants')).toMatch(
      /either in the store or private to tenants, never both. Remove "tenants" .* or set "channel": "tenant-private"/,
    );
  });
  test('hosts: scheme, path, port, case, IP, wildcard, single label', () => {
    const host = (value: string): string | undefined =>
      messageAt((m) => (m.network.connect = [value]), '$.network.connect[0]');
    expect(host('https://api.example.com/v1')).toMatch(
      /remove the scheme "https:\/\/" .* and the path: write "api.example.com"$/,
    );
    expect(host('api.example.com:8443')).toMatch(/remove the port ":8443" .*: write "api.example.com"$/);
    expect(host('API.Example.com')).toMatch(/lowercase.*write "api.example.com"$/);
    expect(host('192.168.0.1')).toMatch(/IP addresses are not allowed/);
    expect(host('[::1]')).toMatch(/IP addresses are not allowed/);
    expect(host('*.example.com')).toMatch(/wildcards are not allowed/);
    expect(host('intranet')).toMatch(/single label/);
    expect(host('bad_label.example.com')).toMatch(/letters a-z, digits and inner hyphens/);
    expect(host('-bad.example.com')).toMatch(/inner hyphens/);
  });
  test('versions: leading v, leading zeros, wrong part count', () => {
    const version = (value: string): string | undefined => messageAt((m) => (m.version = value), '$.version');
    expect(version('v1.2.3')).toBe('$.version is not a version: drop the leading "v": write "1.2.3"');
    expect(version('1.02.3')).toMatch(/remove the leading zeros: write "1.2.3"/);
    expect(version('1.2')).toMatch(/three dot-separated integers .* has 2 parts/);
    expect(version('2026120600.0.0')).toBe(
      '$.version is not a version: each part has at most 9 digits (2026120600 has 10), so that every host reads it as a 32-bit integer: write a smaller number, such as "1.0.0"',
    );
    // A pre-release's own dots are not parts: the suffix is named.
    expect(version('1.0.0-beta.1')).toBe(
      '$.version is not a version: a version has no pre-release or build suffix ("-beta.1"): write three integers such as "1.0.0", and test a release before it with svc dev',
    );
  });
  test('csp: what to remove and what to add', () => {
    expect(messageAt((m) => (m.csp = "script-src 'self' https://cdn.example.com; object-src 'none'"), '$.csp')).toBe(
      "$.csp must set script-src to exactly 'self'; remove https://cdn.example.com (all code comes from the signed package)",
    );
  });
  test('action names get a snake_case suggestion', () => {
    expect(messageAt((m) => (m.actions[0].name = 'createOrder'), '$.actions[0].name')).toMatch(/write "create_order"$/);
  });
  test('every issue message starts with its path', () => {
    const issues = issuesAfter((m) => {
      m.extra = 1;
      m.name = '';
      m.csp = '';
      m.icons = [];
      m.auth = { mode: 'none' };
      m.actions[0].input_schema = { type: 'array' };
    });
    expect(issues.length).toBeGreaterThan(5);
    for (const issue of issues) expect(issue.message.startsWith(issue.path)).toBe(true);
  });
  test('a missing field says what it is', () => {
    expect(messageAt((m) => delete m.auth, '$.auth')).toBe(
      '$.auth is required; add "auth" (Authentication mode; it cannot change at runtime)',
    );
  });
  test('a value of the wrong type gets one issue, not the rules of the type it should have', () => {
    expect(issuesAfter((m) => (m.icons = 'x')).filter((i) => i.path === '$.icons')).toEqual([
      { path: '$.icons', message: '$.icons must be an array; got string "x"', severity: 'error', code: 'wrong_type' },
    ]);
  });
  test('a short list says what to add', () => {
    expect(messageAt((m) => (m.icons = [m.icons[0]]), '$.icons')).toBe(
      '$.icons must have at least 2 items; it has 1; add icons in at least two sizes, such as 192x192 and 512x512',
    );
  });
});
