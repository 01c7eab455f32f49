/** A context of any engine: Playwright-shaped pages. */
export interface EngineContext {
  newPage(): Promise<unknown>;
  pages(): unknown[] | Promise<unknown[]>;
  close(): Promise<void>;
}
/** A launched engine. */
export interface LaunchedEngine {
  engine: 'chromium' | 'firefox' | 'webkit';
  browser: unknown;
  newContext(): Promise<EngineContext>;
  close(): Promise<void>;
}
/** Where each engine is, and the Debian packages that bring it. */
export declare const ENGINES: Record<
  'chromium' | 'firefox' | 'webkit',
  { path: string; apt: string; browser?: string }
>;
/** Why `engine` cannot start here, or undefined when it can. */
export declare function engineMissing(engine: 'chromium' | 'firefox' | 'webkit' | 'native'): string | undefined;
/** Starts Xvfb on a display it picks. */
export declare function startXvfb(): Promise<{ display: string; stop(): void }>;
/** Launches `engine` headless. */
export declare function launchEngine(engine: string): Promise<LaunchedEngine>;
