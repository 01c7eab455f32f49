/** Declares the mock's browser cases for `manifest` (an svc-exchange manifest with a `close_poll` action). */
export declare function declareMockCases(manifest: unknown): void;
