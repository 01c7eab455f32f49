/**
 * A package version: three dot-separated integers without leading zeros (`major.minor.patch`), each of at most 9
 * digits, so that every host reads it as a 32-bit integer (Swift's and Kotlin's `Int32`, a JavaScript number) and
 * the store and every host agree on which of two versions is higher.
 * @public
 */
export const VERSION_PATTERN = /^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$/;

/**
 * Tells whether a string is a package version (`1.10.0`).
 * @public
 */
export function isVersion(value: string): boolean {
  return VERSION_PATTERN.test(value);
}

/**
 * Compares two package versions numerically: negative when `a` is lower, 0 when equal, positive when higher.
 *
 * @remarks
 * Each part is compared as an integer, so `1.10.0` is higher than `1.9.0`.
 * @throws RangeError when either argument is not a version.
 * @example
 * ```ts
 * compareVersions('1.10.0', '1.9.0'); // > 0
 * ```
 * @public
 */
export function compareVersions(a: string, b: string): number {
  const pa = partsOf(a);
  const pb = partsOf(b);
  for (let i = 0; i < 3; i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Suggests the next patch version, for messages. */
export function nextPatch(version: string): string {
  const [major, minor, patch] = partsOf(version) as [number, number, number];
  return `${major}.${minor}.${patch + 1}`;
}

function partsOf(version: string): number[] {
  if (!isVersion(version)) {
    throw new RangeError(`"${version}" is not a version; write three dot-separated integers such as 1.2.3`);
  }
  return version.split('.').map(Number);
}

/** Explains why a string is not a version, saying what to write instead. */
export function describeVersionProblem(value: string): string {
  const trimmed = value.replace(/^v/i, '');
  if (trimmed !== value && isVersion(trimmed)) return `drop the leading "v": write "${trimmed}"`;
  // A semver pre-release or build suffix holds dots of its own: counting parts would miss the point.
  const suffixed = /^(\d+\.\d+\.\d+)([-+].*)$/.exec(value);
  if (suffixed)
    return `a version has no pre-release or build suffix ("${suffixed[2]}"): write three integers such as "${suffixed[1]}", and test a release before it with svc dev`;
  const parts = value.split('.');
  if (parts.length !== 3) {
    return `write exactly three dot-separated integers (major.minor.patch) such as "1.0.0"; "${value}" has ${parts.length} part${parts.length === 1 ? '' : 's'}`;
  }
  if (parts.every((p) => /^[0-9]+$/.test(p))) {
    const long = parts.find((p) => String(BigInt(p)).length > 9);
    if (long !== undefined)
      return `each part has at most 9 digits (${long} has ${String(BigInt(long)).length}), so that every host reads it as a 32-bit integer: write a smaller number, such as "1.0.0"`;
    const fixed = parts.map((p) => String(BigInt(p))).join('.');
    return `remove the leading zeros: write "${fixed}"`;
  }
  return `each part must be a whole number without signs, letters or suffixes (no "-beta", no "+build"); write something like "1.0.0" instead of "${value}"`;
}
