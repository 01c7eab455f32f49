import type { Browser, BrowserContext } from '@playwright/test';
import type { EngineContext } from './engines/launchEngine.mjs';

/** The helpers each bridge case receives (see bridgeCases.mjs). */
export type BridgeHelpers = Record<string, unknown>;
/** Builds a case's helpers over a fresh context and the servers' origins. */
export declare function helpersFor(
  context: BrowserContext | EngineContext,
  browser: Browser | unknown,
  origins: { H: string; A: string; X: string; E: string },
  engine?: 'chromium' | 'firefox' | 'webkit',
): BridgeHelpers;
