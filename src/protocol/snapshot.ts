// biome-ignore-all lint/suspicious/noExplicitAny: the client reads globals and wire values of foreign shape and checks each where it is used; typing them would add guards the 4,000-byte budget cannot afford
// The imports' order is measured, not alphabetical: it sets the order of the client's modules in an app's bundle,
// which moves its brotli bytes (docs/performance.md, the client's bytes).
import type { Theme } from './types';
import { BRIDGE_VERSION } from './frames';

/**
 * What a host hands over before app code runs, so that the synchronous members of `svc` can answer at once.
 *
 * @remarks
 * A web host puts it, JSON-encoded, in the iframe URL's fragment as `#svc=<encodeURIComponent(json)>`; a native
 * host injects it as `globalThis.__svc_launch` before the page's scripts run. The welcome of the window bootstrap
 * may carry a fresher copy. See PROTOCOL.md.
 * @public
 */
export interface LaunchSnapshot {
  /** The bridge version the host speaks: `svc.version`. */
  bridge: string;
  /** The operations the host offers: `svc.supports()` answers from this list. */
  methods: string[];
  /** `svc.app` values. */
  app: { id: string; version: string; locale: string; theme: Theme; launch_params: Record<string, string> };
  /** Web hosts: the host page's exact origin, the only one the app says hello to and accepts a welcome from. */
  host_origin?: string;
}

// The string fields of an untrusted object (or array), as own data properties of a fresh object: no prototype
// pollution, and anything that is not a string is dropped.
const strings = (o: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(o instanceof Object ? o : {}).filter(([, v]) => typeof v == 'string'));

/**
 * Reads a snapshot from untrusted input field by field: a missing or malformed field falls back to its default,
 * and nothing from the input is merged into our objects.
 */
export function parseSnapshot(input: any, fallbackLocale = 'en'): LaunchSnapshot {
  const s = strings(input);
  const app = strings(input?.app);
  return {
    bridge: s.bridge ?? BRIDGE_VERSION,
    methods: Object.values(strings(input?.methods)),
    app: {
      id: app.id ?? '',
      version: app.version ?? '',
      locale: app.locale ?? fallbackLocale,
      theme: app.theme == 'dark' ? 'dark' : 'light',
      launch_params: strings(input?.app?.launch_params),
    },
    host_origin: s.host_origin,
  };
}
