import type { HttpBindings } from '@hono/node-server';

/**
 * The Hono environment of the platform's app: under `@hono/node-server` the node request and response (the MCP
 * endpoint answers on them); absent when a test calls `app.request()` in-process.
 * @internal
 */
export interface PlatformEnv {
  Bindings: Partial<HttpBindings>;
}
