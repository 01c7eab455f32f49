/**
 * A Web Crypto `CryptoKey`, described by its members so that code compiled with Node's types alone, without the DOM
 * library, can name it (Node's types declare no global `CryptoKey`). Any `CryptoKey` is one.
 * @public
 */
export interface WebCryptoKey {
  readonly type: string;
  readonly algorithm: { name: string };
  readonly extractable: boolean;
  readonly usages: readonly string[];
}
