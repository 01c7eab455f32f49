import type { PlatformApp } from './createPlatformApp';

const apps = new WeakMap<object, PlatformApp>();

/**
 * The one Hono app of a running platform, by its handle: tests send it requests in-process with `app.request()`
 * (no socket, no port), through the same guards, limits and error handler as the network.
 * @internal
 */
export const platformApps = {
  /** Remembers a platform's app (startDevPlatform does, once). */
  set(handle: object, app: PlatformApp): void {
    apps.set(handle, app);
  },
  /** The app of a platform this process started. */
  of(handle: object): PlatformApp {
    const app = apps.get(handle);
    if (!app) throw new TypeError('platformApps.of(): pass a platform startDevPlatform returned.');
    return app;
  },
};
