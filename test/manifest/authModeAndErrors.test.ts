import { describe, expect, test } from 'vitest';
import { assertManifest, isManifestError, ManifestError, validateManifest } from '../../src/manifest';
import { issuesAfter, type Json, validManifest } from './fixtures';

describe('auth: "type" is the key, "mode" gets a rename instruction', () => {
  test('a manifest that writes mode gets one issue at $.auth.mode with the exact change', () => {
    const issues = issuesAfter((m) => (m.auth = { mode: 'svc-exchange', audience: 'pizza-backend' }));
    expect(issues).toEqual([
      {
        path: '$.auth.mode',
        message:
          '$.auth.mode: the auth mode key is "type", not "mode"; rename the key "mode" to "type" and keep the value: "type": "svc-exchange"',
        severity: 'error',
        code: 'auth_mode_key',
      },
    ]);
  });
  test('the rest of an auth written with mode is still checked', () => {
    const paths = issuesAfter((m) => (m.auth = { mode: 'external-oauth', issuer: 'https://id.example.com' })).map(
      (i) => i.path,
    );
    expect(paths).toEqual(['$.auth.mode', '$.auth.client_id']);
  });
  test('mode next to type is reported as a repeat to remove', () => {
    const issues = issuesAfter((m) => (m.auth = { type: 'none', mode: 'none' }));
    expect(issues.map((i) => i.message)).toEqual([
      '$.auth.mode repeats the auth mode, which is carried by "type" alone; remove "mode"',
    ]);
  });
});

describe('assertManifest and ManifestError', () => {
  test('returns the typed manifest when valid', () => {
    expect(assertManifest(validManifest()).name).toBe('Pizza Orders');
  });
  test('throws a ManifestError listing every issue', () => {
    const m: Json = validManifest();
    m.name = '';
    m.vendor.website = 'x';
    let thrown: unknown;
    try {
      assertManifest(m);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ManifestError);
    expect(isManifestError(thrown)).toBe(true);
    const error = thrown as ManifestError;
    expect(error.issues.map((i) => i.path)).toEqual(['$.name', '$.vendor.website']);
    expect(error.message).toContain('the manifest is invalid (2 errors)');
    expect(error.message).toContain('$.vendor.website is not a manifest field');
  });
  test('isManifestError and instanceof hold for a copy of the class from another bundle, and refuse look-alikes', () => {
    // Another copy of the package defines its own class; the brand is a global symbol both copies share.
    class OtherCopy extends Error {}
    Object.defineProperty(OtherCopy.prototype, Symbol.for('svc-sdk.error'), { value: 'ManifestError' });
    const foreign = new OtherCopy('x');
    expect(isManifestError(foreign)).toBe(true);
    expect(foreign instanceof ManifestError).toBe(true);
    expect(isManifestError(new Error('x'))).toBe(false);
    expect(isManifestError(Object.assign(new Error('x'), { name: 'ManifestError', issues: [] }))).toBe(false);
    expect({ name: 'ManifestError', issues: [] } instanceof ManifestError).toBe(false);
  });
  test('validateManifest never throws on garbage', () => {
    for (const input of [null, undefined, 1, 'x', [], { auth: null }, { actions: [null, 1] }, { auth: { mode: 1 } }]) {
      expect(validateManifest(input).ok).toBe(false);
    }
  });
});
