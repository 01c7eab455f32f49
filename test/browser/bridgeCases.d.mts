import type { Browser, BrowserContext } from '@playwright/test';

/** The helpers each bridge case receives (see bridgeCases.mjs). */
export type BridgeHelpers = Record<string, unknown>;
/** Builds a case's helpers over a fresh context and the servers' origins. */
export declare function helpersFor(
  context: BrowserContext,
  browser: Browser,
  origins: { H: string; A: string; X: string; E: string },
): BridgeHelpers;
