import { assertManifest, createInputValidator } from '../manifest';
import { createHostCore } from './createHostCore';
import { withRules } from './rules/createRules';
import type { HostEndpoint, HostOptions } from './types';

/**
 * Creates the host's endpoint: it answers the client's calls with `handlers`, rejects malformed params before any
 * handler runs, checks scopes, and invokes the app's actions. With a `manifest` (validated here: an invalid one
 * throws naming each problem) the rules apply around `handlers`, the platform's effects; without one, `handlers`
 * answer as they are and `granted` decides the scopes. A host that validated its manifest at upload uses
 * `svc-sdk/host/core` instead, without the validator's weight.
 * @example
 * ```ts
 * const host = createHost({ manifest, handlers: { 'room.current': () => null }, hostOrigin: location.origin });
 * attachIframe(host, iframe, appOrigin); // listen before the app can say hello
 * iframe.src = launchUrl(appUrl, host.snapshot);
 * ```
 * @public
 */
export function createHost(options: HostOptions): HostEndpoint {
  const { manifest, answers, grants, storage, signedIn, confirmActions, handlerWait, ...bridge } = options;
  // Without a manifest, the bare bridge: given answers or grants, it refuses them rather than ignore them.
  if (manifest === undefined) return createHostCore(options);
  return createHostCore({
    ...bridge,
    rules: withRules({
      manifest: assertManifest(manifest),
      validator: createInputValidator,
      answers,
      grants,
      storage,
      signedIn,
      confirmActions,
      handlerWait,
    }),
  });
}
