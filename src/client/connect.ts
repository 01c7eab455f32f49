// biome-ignore-all lint/suspicious/noExplicitAny: the client reads globals and wire values of foreign shape and checks each where it is used; typing them would add guards the 4,000-byte budget cannot afford
// The imports' order is measured, not alphabetical: it sets the order of the client's modules in an app's bundle,
// which moves its brotli bytes (docs/performance.md, the client's bytes).
import { SvcError } from '../protocol/SvcError';
import { portTransport } from '../rpc/portTransport';
import { takeGlobal } from './takeGlobal';
import { NATIVE_CONTRACT, WIRE } from '../protocol/frames';
import type { Transport } from '../rpc/Transport';

let nativePort: unknown;

/** The channel to the host, and the fresher launch snapshot a web host's welcome may carry. */
export type Connection = [transport: Transport, snapshot?: unknown];

/**
 * Finds the host, on first use (never at import, so importing the SDK where there is no `window` does not throw):
 * the port a native WebView's injected adapter left at `__svc_port` (a plain object only, removed once taken), else
 * the parent window.
 *
 * With a parent, it says hello at the host's exact origin (the host listens before it sets the iframe's src) and
 * adopts the port of the first welcome that comes from the parent window, from that origin, with our nonce.
 * Everything after that goes over the port, which no other frame can reach.
 */
export function connect(origin: string | undefined, timeout: number, trusted?: string[]): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const win: any = globalThis.window;
    const fail = (code: string, why: string, retriable?: boolean) => reject(new SvcError(code, why, retriable));
    // The native adapter's port: taken from the page (then kept for reconnections, a newly installed one first); a
    // planted element or child frame under that name is ignored, and never receives the app's calls.
    nativePort = takeGlobal(win, '__svc_port') ?? nativePort;
    if (nativePort)
      return (nativePort as any).version == NATIVE_CONTRACT
        ? resolve([portTransport(nativePort as MessagePort)])
        : fail(
            'ERR_PROTOCOL',
            `native-adapter.js is contract ${(nativePort as any).version}; this svc-sdk needs ${NATIVE_CONTRACT}`,
          );
    // Whoever frames the app writes its fragment, so the host origin it names is trusted only when the app (its
    // own markup, or the platform that served its package) lists it; and where the browser tells us the parent's
    // real origin, that must be the one too. '*' is never a target.
    // A page loaded without the launch in its URL (a reload after a hash router changed the fragment, another page
    // of the app) names no host: it says hello to its parent's origin as the browser reports it, under the same
    // checks, and the welcome brings the launch.
    // Each way of having no trusted host has its message, which says which one it is and never prints a missing
    // origin: no window (SSR, Node); no host's frame (a top-level page, or a frame whose host nobody names: no
    // launch, and a browser that does not report the parent); a parent the browser reports as another origin than
    // the one named ('null', Firefox under a no-referrer policy, names nothing, and the allow-list still holds); an
    // origin the app does not list. Their order and wording are measured (docs/performance.md, the client's bytes).
    if (!win) return fail('ERR_NO_HOST', 'no window (SSR, Node): call svc in a browser');
    const parent = win.location?.ancestorOrigins?.[0];
    origin ??= parent;
    trusted ??= win.document?.querySelector('meta[name=svc-host-origins]')?.content.split(' ');
    if (!origin || win.parent == win)
      return fail('ERR_NO_HOST', 'not in a host frame: open the app in a host; in tests use svc-sdk/mock');
    // The browser's origins are never empty: an opaque one reads 'null'.
    if (parent && parent != origin && parent != 'null')
      return fail('ERR_NO_HOST', `the parent frame is ${parent}, not ${origin}`);
    if (origin == '*' || !trusted?.includes(origin))
      return fail('ERR_NO_HOST', `${origin} is not in <meta name=svc-host-origins>`);
    // The nonce pairs the welcome with this hello (a reload's or reconnection's hello has a new one); it keeps nobody
    // out, the source and origin checks do, so it need not be unguessable: Math.random, since WebKit's first
    // crypto.getRandomValues costs 0.4 ms of the first call.
    const nonce = Math.random().toString(36).slice(2);
    const onMessage = ({ source, origin: from, data: d, ports }: MessageEvent) => {
      // The data's fields are compared strictly: a loose comparison converts an object (a String object survives
      // structured clone) to a primitive, which can throw in this listener or let a look-alike through.
      if (
        source != win.parent ||
        from != origin ||
        d?.svc !== 'welcome' ||
        d.wire !== WIRE ||
        d.nonce !== nonce ||
        !ports[0]
      )
        return;
      done();
      resolve([portTransport(ports[0]), d.snapshot]);
    };
    const timer = setTimeout(() => {
      done();
      fail('ERR_HOST_UNREACHABLE', `no answer from ${origin} within ${timeout} ms; retry`, true);
    }, timeout);
    const done = () => {
      clearTimeout(timer);
      win.removeEventListener('message', onMessage);
    };
    win.addEventListener('message', onMessage);
    try {
      win.parent.postMessage({ svc: 'hello', wire: WIRE, nonce }, origin);
    } catch {
      // A malformed origin throws here; the timeout then reports it by name.
    }
  });
}
