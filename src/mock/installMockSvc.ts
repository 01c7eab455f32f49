import { createMockHost } from './createMockHost';
import type { MockHost } from './MockHost';
import type { MockHostOptions } from './types';

/**
 * A mock host whose `svc` is also `globalThis.svc`, and the way to take it off again.
 * @public
 */
export interface InstalledMockSvc extends MockHost {
  /** Closes the host and puts back whatever `globalThis.svc` was before (or removes it). Idempotent. */
  uninstall(): void;
}

/**
 * Creates a mock host (see {@link createMockHost}) and puts its `svc` on `globalThis`, for mini apps that use the
 * global `svc` (a script tag, or `import 'svc-sdk/global'`).
 *
 * @remarks
 * Call `uninstall()` after each test (`afterEach`) so that nothing leaks into the next one. Installs nest: each
 * `uninstall()` restores what its own install replaced.
 * @example
 * ```ts
 * let host: InstalledMockSvc;
 * beforeEach(() => (host = installMockSvc({ manifest })));
 * afterEach(() => host.uninstall());
 * ```
 * @public
 */
export function installMockSvc(options: MockHostOptions): InstalledMockSvc {
  const host = createMockHost(options);
  const g = globalThis as Record<string, unknown>;
  const previous = Object.getOwnPropertyDescriptor(g, 'svc');
  Object.defineProperty(g, 'svc', { value: host.svc, configurable: true, writable: true, enumerable: false });
  let installed = true;
  return {
    ...host,
    uninstall() {
      if (!installed) return;
      installed = false;
      host.close();
      // Only restore when the global is still ours: a later install's global is not ours to remove.
      if (g.svc !== host.svc) return;
      if (previous) Object.defineProperty(g, 'svc', previous);
      else delete g.svc;
    },
  };
}
