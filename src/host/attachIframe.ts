import { WIRE, type WelcomeMessage } from '../protocol/frames';
import { isPlain } from '../protocol/shape';
import { portTransport } from '../rpc/portTransport';
import { APP_FRAME_ALLOW } from './appFrameAllow';
import { APP_FRAME_SANDBOX } from './appFrameSandbox';
import type { HostEndpoint } from './types';

/** The origin of `url` as the browser writes it, or undefined for what is no URL (a bare host name, `*`) or has none. */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The web host's side of the bootstrap: answers a hello only when it comes from `iframe`'s window and from
 * `appOrigin` exactly, by sending a welcome to that origin with a fresh `MessagePort`. A later hello (the app
 * reloaded) replaces the port; a hello from any other window or origin is ignored, so a sibling frame or a page the
 * app was navigated to never receives a port, and a nonce already answered is never answered again (a replayed
 * hello cannot rebind the host).
 *
 * Attach before setting `iframe.src`, so that the first hello is not missed. A frame without an `allow` attribute of
 * its own gets {@link APP_FRAME_ALLOW}, the browser features a page of its own would have (the camera, geolocation,
 * the clipboard...): a frame of another site has none of them otherwise. A frame without a `sandbox` attribute of its
 * own gets {@link APP_FRAME_SANDBOX}, which keeps the app from navigating the host's page.
 * @returns A function that stops listening (the channel itself is closed with `host.close()`).
 * @public
 */
export function attachIframe(
  host: HostEndpoint,
  iframe: HTMLIFrameElement,
  appOrigin: string,
  win: Window = window,
): () => void {
  // Compared as the browser writes `event.origin`: a trailing slash, a path or upper case would match no hello, and
  // the app would wait for a welcome that never comes.
  if (!appOrigin || originOf(appOrigin) !== appOrigin)
    throw new TypeError(
      `attachIframe(): appOrigin must be the app's exact origin as the browser writes it (scheme, host and port; no path, no trailing slash, lower case), such as '${originOf(appOrigin) ?? 'https://app.example'}', not '${appOrigin}'.`,
    );
  // Every nonce answered, not only the last: a replayed older hello would otherwise rebind the host to a new port
  // and cut the running invocation (PROTOCOL.md: a nonce is answered once).
  const answered = new Set<string>();
  // Before the frame navigates: the browser fixes a document's features and sandbox when it loads.
  if (!iframe.allow) iframe.allow = APP_FRAME_ALLOW;
  if (!iframe.sandbox?.length) iframe.sandbox = APP_FRAME_SANDBOX;
  const onMessage = (event: MessageEvent) => {
    const d = event.data;
    if (event.source !== iframe.contentWindow || event.origin !== appOrigin || !isPlain(d)) return;
    if (d.svc !== 'hello' || d.wire !== WIRE || typeof d.nonce !== 'string' || answered.has(d.nonce)) return;
    answered.add(d.nonce);
    const channel = new MessageChannel();
    host.attach(portTransport(channel.port1));
    const welcome: WelcomeMessage = { svc: 'welcome', wire: WIRE, nonce: d.nonce, snapshot: host.snapshot };
    // The exact origin, never '*': if the frame navigated elsewhere meanwhile, the browser drops the port.
    (event.source as Window).postMessage(welcome, appOrigin, [channel.port2]);
  };
  win.addEventListener('message', onMessage);
  return () => win.removeEventListener('message', onMessage);
}
