// One global symbol for every error class of the package: `Symbol.for` is shared by every copy of the SDK (ESM, CJS,
// two bundles) and by every same-origin frame, where the classes themselves are not.
const BRAND = Symbol.for('svc-sdk.error');

/**
 * Whether `value` is an error of the package's class named `name`, made by any copy of the SDK in any frame.
 * @internal
 */
export function hasErrorBrand(value: unknown, name: string): boolean {
  // `?.` covers null and undefined; a primitive has no such symbol.
  return (value as Record<symbol, unknown> | undefined)?.[BRAND] == name;
}

/**
 * Marks `cls`'s instances with its name and makes `instanceof cls` hold for any instance so marked, wherever made.
 *
 * @remarks
 * Used from each error class's static block, so the mark and the check are one mechanism for `SvcError`,
 * `ManifestError`, `SvcApiError`, `SvcSignatureError` and `SvcTokenError`.
 * @internal
 */
export function brandError(cls: { prototype: object }, name: string): void {
  Object.defineProperty(cls.prototype, BRAND, { value: name });
  Object.defineProperty(cls, Symbol.hasInstance, { value: (value: unknown) => hasErrorBrand(value, name) });
}
