/**
 * The mark every error class of the package puts on its instances: a global symbol, which `Symbol.for` shares between
 * every copy of the SDK (ESM, CJS, two bundles) and every same-origin frame, where the classes themselves are not.
 *
 * @remarks
 * One mechanism for `SvcError`, `ManifestError`, `SvcApiError`, `SvcSignatureError` and `SvcTokenError`: each
 * instance carries `[ERROR_BRAND]: '<class name>'`, and each class's static `Symbol.hasInstance` asks
 * {@link hasErrorBrand}, so `instanceof` holds for an error of that class made anywhere.
 * @internal
 */
export const ERROR_BRAND: unique symbol = Symbol.for('svc-sdk.error') as never;

/**
 * Whether `value` is an error of the package's class named `name`, made by any copy of the SDK in any frame.
 * @internal
 */
export function hasErrorBrand(value: unknown, name: string): boolean {
  // `?.` covers null and undefined; a primitive has no such symbol.
  return (value as { [ERROR_BRAND]?: string } | undefined)?.[ERROR_BRAND] == name;
}
