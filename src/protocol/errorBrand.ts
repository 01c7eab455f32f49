/**
 * The mark every error class of the package puts on its instances: a global symbol, which `Symbol.for` shares between
 * every copy of the SDK (ESM, CJS, two bundles) and every same-origin frame, where the classes themselves are not.
 *
 * @remarks
 * One mechanism for `SvcError`, `ManifestError`, `SvcApiError`, `SvcSignatureError` and `SvcTokenError`: each
 * instance carries `[ERROR_BRAND]: '<class name>'`, and each class's static `Symbol.hasInstance` asks
 * {@link hasErrorBrand}, so `instanceof` holds for an error of that class made anywhere. The server's and the
 * manifest's classes extend `brandedError` (below); `SvcError` writes the same two members out, because the mixin would
 * cost the browser client 16 of its last bytes.
 * @internal
 */
export const ERROR_BRAND: unique symbol = Symbol.for('svc-sdk.error') as never;

/**
 * Whether `value` is an error of the package's class named `name`, made by any copy of the SDK in any frame.
 * @internal
 */
export function hasErrorBrand(value: unknown, name: string): boolean {
  // `?.` covers null and undefined; a primitive has no such symbol.
  return (value as { [ERROR_BRAND]?: string } | undefined)?.[ERROR_BRAND] === name;
}

/**
 * What {@link brandedError} returns: an `Error` class whose instances are named `N`. The brand itself stays out of
 * the public types.
 * @internal
 */
export interface BrandedErrorClass<N extends string> {
  new (message?: string, options?: ErrorOptions): Error & { readonly name: N };
  [Symbol.hasInstance](value: unknown): boolean;
}

/**
 * The base of the package's error class named `name`: each instance carries the brand, and `instanceof` on the class
 * asks {@link hasErrorBrand}, so it holds for an error of that class made by any copy of the SDK, in any same-origin
 * frame.
 * @example
 * ```ts
 * export class SvcTokenError extends brandedError('SvcTokenError') {}
 * ```
 * @internal
 */
export function brandedError<const N extends string>(name: N): BrandedErrorClass<N> {
  return class extends Error {
    override readonly name: N = name;
    /** The package's mark, shared by every copy of the SDK. @internal */
    readonly [ERROR_BRAND]: N = name;

    static override [Symbol.hasInstance](value: unknown): boolean {
      return hasErrorBrand(value, name);
    }
  };
}
