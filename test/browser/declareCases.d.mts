/** A declared bridge case. */
export interface BridgeCase {
  name: string;
  fn: (helpers: Record<string, unknown>) => Promise<void>;
  timeout: number;
}
/** Every case declared by bridgeCases.mjs, in order. */
export declare const tests: BridgeCase[];
