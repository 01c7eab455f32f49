/**
 * `import 'svc-sdk/global'` puts `svc` on `globalThis` (unless a host already did) and types the global.
 * @packageDocumentation
 */
// By name, not by path: the build keeps it external, so this entry shares dist/index.js and its one svc.
import { svc as client, type Svc } from 'svc-sdk';

declare global {
  /** The svc bridge: the only non-standard global a mini app receives. */
  // eslint-disable-next-line no-var
  var svc: Svc;
}

globalThis.svc ??= client;

export type { Svc };
