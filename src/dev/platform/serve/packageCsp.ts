import { parseCsp } from '../../../manifest';
import { isLoopbackHost } from '../../isLoopbackHost';
import type { Manifest } from '../../../manifest';

/**
 * Where the package server receives the browser's CSP violation reports (on the package's own origin), followed by
 * a segment each run draws anew, which only the app's own pages carry.
 */
export const CSP_REPORT_PATH = '/__svc/csp-report';

/** The two policies a package page is served with. @public */
export interface PackagePolicies {
  /** The manifest's own `csp`, with the loopback backends named by `--allow` added to what may be fetched. */
  declared: string;
  /**
   * The platform's: who may frame the page (the messenger only), and the network allowlist as the native runtime
   * enforces it (`network.connect` over HTTPS, `network.socket` over WSS, plus the `--allow` backends).
   */
  platform: string;
}

/**
 * The Content-Security-Policy headers of a package page. Both are sent: a browser enforces every policy it gets,
 * so a request must pass the manifest's own policy and the platform's network allowlist.
 * @param allow - loopback origins of the developer's backends (e.g. `http://127.0.0.1:3000`).
 * @param reportUri - where the browser sends its reports; the package server gives a path of its own run.
 * @public
 */
export function packageCsp(
  manifest: Manifest,
  messengerOrigin: string,
  allow: readonly string[],
  reportUri = CSP_REPORT_PATH,
): PackagePolicies {
  const directives = parseCsp(manifest.csp);
  const connect = directives.get('connect-src') ?? directives.get('default-src');
  // A dev-only relaxation: the backends the developer named are reachable whatever the manifest's connect-src
  // says, since a production manifest names the production hosts, not localhost.
  if (allow.length && connect) directives.set('connect-src', [...connect, ...allow]);
  directives.set('report-uri', [reportUri]);
  const declared = [...directives].map(([name, values]) => [name, ...values].join(' ')).join('; ');
  const hosts = [
    ...(manifest.network.connect ?? []).map((h) => `https://${h}`),
    ...(manifest.network.socket ?? []).map((h) => `wss://${h}`),
  ];
  const platform = [
    `frame-ancestors ${messengerOrigin}`,
    `connect-src 'self' ${[...hosts, ...allow].join(' ')}`.trim(),
    `report-uri ${reportUri}`,
  ].join('; ');
  return { declared, platform };
}

/**
 * What to tell the developer about a request the browser blocked: the host to add to `network`, the `--allow` flag
 * for a loopback backend (not for `platformOrigin`'s port, svc dev's own), or, for the page's own frame, the
 * manifest's `frame-ancestors` to remove.
 * @public
 */
export function blockedAdvice(blockedUri: string, directive: string, platformOrigin?: string): string {
  // The page itself was refused a frame: by the manifest's own frame-ancestors (svc validate warns of it), or, with
  // the platform's, because a page other than the messenger framed it.
  if (directive.startsWith('frame-ancestors'))
    return `the app's page may not be framed here: remove frame-ancestors from the manifest's csp (the platform sets who may frame the app), or open the app from the messenger.`;
  // Chromium reports the compiling of WebAssembly the policy refused as the blocked URI `wasm-eval`.
  if (blockedUri === 'wasm-eval')
    return `the page compiled WebAssembly, which a mini app's policy never allows (script-src 'self' only: 'wasm-unsafe-eval' would let it compile code fetched from any host it reaches); ship the code as JavaScript.`;
  let url: URL | undefined;
  try {
    url = new URL(blockedUri);
  } catch {
    return `the page broke its CSP (${directive}): ${blockedUri || 'an inline script or style'}; all code must come from the package.`;
  }
  const loopback = isLoopbackHost(url.hostname);
  // The platform's own address is never a backend to allow: svc dev refuses it as --allow.
  if (loopback && platformOrigin !== undefined && url.port === new URL(platformOrigin).port)
    return `${url.origin} is svc dev's own platform (the messenger, its control API, the server API): a mini app reaches the platform through svc, never by fetch, and its backend through the server API.`;
  if (loopback) return `${url.origin} is not allowed: start svc dev with --allow ${url.origin} (development only).`;
  if (directive.startsWith('connect-src') || directive.startsWith('default-src')) {
    const list = url.protocol === 'wss:' ? 'socket' : 'connect';
    return `${url.host} is not in the manifest's network: add "${url.hostname}" to network.${list} (and to the csp's connect-src).`;
  }
  return `${url.origin} was blocked by ${directive}: the manifest's csp does not allow it.`;
}
