import { describe, expect, test } from 'vitest';
import { checkCsp, compareVersions, describeHostProblem, parseCsp } from '../../src/manifest';

describe('checkCsp', () => {
  test('accepts the minimal policy, in any case and spacing', () => {
    expect(checkCsp("script-src 'self'; object-src 'none'")).toEqual([]);
    expect(checkCsp("  OBJECT-SRC   'NONE' ;Script-Src 'SELF';; img-src * data:")).toEqual([]);
  });
  test('requires object-src none exactly', () => {
    expect(checkCsp("script-src 'self'; object-src 'self'").map((p) => p.code)).toEqual(['csp_object_src']);
    expect(checkCsp("script-src 'self'; object-src 'none' https://x.example").map((p) => p.code)).toEqual([
      'csp_object_src',
    ]);
  });
  test("requires script-src with 'self' as the only source", () => {
    for (const bad of [
      "script-src 'self' 'unsafe-eval'",
      "script-src 'unsafe-inline' 'self'",
      'script-src https://a.example',
      'script-src',
      "img-src 'self'",
    ]) {
      expect(checkCsp(`${bad}; object-src 'none'`).map((p) => p.code)).toEqual(['csp_script_src']);
    }
    expect(checkCsp("script-src 'self' 'self'; object-src 'none'")[0]?.message).toMatch(
      /write "script-src 'self'" once/,
    );
  });
  test('holds the rule in every directive that governs scripts', () => {
    const codes = (csp: string) => checkCsp(`${csp}; object-src 'none'`).map((p) => p.code);
    expect(codes("script-src 'self'; script-src-elem 'self' https://cdn.example")).toEqual(['csp_script_src']);
    expect(codes("script-src 'self'; script-src-attr 'unsafe-inline'")).toEqual(['csp_script_src']);
    expect(codes("script-src 'self'; worker-src blob:")).toEqual(['csp_script_src']);
    expect(codes("script-src 'self'; script-src-elem 'self'; script-src-attr 'none'; worker-src 'self'")).toEqual([]);
    expect(checkCsp("script-src 'self'; script-src-elem https://cdn.example; object-src 'none'")[0]?.message).toMatch(
      /script-src-elem to exactly 'self'; remove https:\/\/cdn.example/,
    );
  });
  test("a script-src of 'self' is required: default-src does not stand in for it, and still must hold the rule", () => {
    const missing = checkCsp("default-src 'self'; object-src 'none'");
    expect(missing.map((p) => p.code)).toEqual(['csp_script_src']);
    expect(missing[0]?.message).toMatch(/add "script-src 'self'"/);
    const problems = checkCsp("default-src 'self' https://cdn.example; object-src 'none'");
    expect(problems.map((p) => p.code)).toEqual(['csp_script_src', 'csp_script_src']);
    expect(problems[1]?.message).toMatch(
      /default-src to exactly 'self'; remove https:\/\/cdn.example .*with no script-src, it governs scripts/,
    );
    expect(checkCsp("default-src 'self'; script-src 'self'; object-src 'none'")).toEqual([]);
  });
  test('reports a repeated directive, which browsers would ignore', () => {
    const problems = checkCsp("script-src 'self'; object-src 'none'; script-src https://cdn.example");
    expect(problems.map((p) => p.code)).toEqual(['csp_duplicate_directive']);
  });
  test('an empty policy says what to write', () => {
    expect(checkCsp(' ')[0]?.message).toMatch(/script-src 'self'; object-src 'none'/);
  });
  test('parseCsp keeps the first occurrence', () => {
    expect(parseCsp('a x; A y; b').get('a')).toEqual(['x']);
  });
});

describe('describeHostProblem', () => {
  test('accepts bare lowercase hosts with two or more labels', () => {
    for (const host of [
      'a.b',
      'api.example.com',
      'xn--bcher-kva.example',
      'a-b.c-d.example',
      '1password.com',
      'x.y.z.w.example',
    ]) {
      expect(describeHostProblem(host)).toBeNull();
    }
  });
  test('rejects scheme, path, port, IP, wildcard, uppercase, one label, trailing hyphen, digit-only TLD', () => {
    for (const host of [
      'https://a.example',
      'a.example/x',
      'a.example:443',
      '10.0.0.1',
      '*.example.com',
      'A.example',
      'example',
      'a-.example',
      'a.123',
      'a..example',
      '',
    ]) {
      expect(describeHostProblem(host)).not.toBeNull();
    }
  });
  test('rejects labels over 63 characters', () => {
    expect(describeHostProblem(`${'a'.repeat(63)}.example`)).toBeNull();
    expect(describeHostProblem(`${'a'.repeat(64)}.example`)).not.toBeNull();
  });
});

describe('compareVersions', () => {
  test('compares each part as an integer', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('2.0.0', '10.0.0')).toBeLessThan(0);
    expect(compareVersions('1.2.3', '1.2.3')).toBe(0);
    expect(compareVersions('999999999.0.0', '999999998.999999999.999999999')).toBeGreaterThan(0);
  });
  test('throws on something that is not a version', () => {
    expect(() => compareVersions('1.2', '1.2.3')).toThrow(RangeError);
    // Each part has at most 9 digits: a host in any language reads it as a 32-bit integer.
    expect(() => compareVersions('9007199254740993.0.0', '1.0.0')).toThrow(RangeError);
  });
});
