import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A backend's answer to one POST: its status line and its body as text (its first {@link ANSWER_KEPT} characters). */
export interface PostAnswer {
  status: number;
  statusText: string;
  text: string;
  /** The body's length in characters, all of it. */
  length: number;
}

/** The characters of an answer kept: what people read of it is its start, and a backend may send without end. */
const ANSWER_KEPT = 65_536;

/**
 * POSTs `body` to `url` once, as the platform sends a webhook: no redirect followed (the platform posts to the URL
 * it was given, and a redirect would carry the signed body elsewhere), the answer read whole, `signal` ending it.
 *
 * node:http rather than fetch: fetch's first request in a process sets up undici's HTTP client (its parser is
 * WebAssembly, compiled then), about 25 ms that the printed time would count as the backend's; node:http's first
 * request adds about 4. And its errors carry the system's code (ECONNREFUSED), where fetch's say "fetch failed".
 * @internal
 */
export function postOnce(
  url: URL,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<PostAnswer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        // A User-Agent, as fetch sent one: firewalls in front of staging backends often refuse a request without it.
        headers: { 'User-Agent': 'svc-sdk webhooks', ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        signal,
      },
      (response) => {
        let text = '';
        let length = 0;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          length += chunk.length;
          if (text.length < ANSWER_KEPT) text += chunk.slice(0, ANSWER_KEPT - text.length);
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', text, length }),
        );
        response.on('error', reject);
        // A connection closed in the middle of the body ends the wait too (a settled promise ignores this).
        response.on('close', () => {
          if (!response.complete) reject(new Error('the backend closed the connection before its answer ended'));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The error codes of a certificate that does not verify (OpenSSL's, and Node's for a name it does not cover). */
const TLS_CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

/**
 * Why a POST to `url` got no answer, in a sentence for the developer: the system's error code and what to check.
 * For any error but a timeout, which the caller tells apart by its signal.
 * @internal
 */
export function undeliveredWhy(error: unknown, url: URL): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code && TLS_CERTIFICATE_ERROR.test(code))
    return `${code}: the backend's certificate is not one Node trusts; for a certificate of your own, set NODE_EXTRA_CA_CERTS to the file of its authority`;
  // A backend that took the connection and dropped it is running: it failed on the request (a crash, a proxy).
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return `${code}: the backend at ${url.origin} closed the connection without answering; look at its log`;
  return `${code ?? (error as Error).message}: is the backend running at ${url.origin}?`;
}

/**
 * A URL as people may see it (a terminal, the deliveries in the messenger, the state file): a password it carries, for
 * a staging backend behind basic authentication, replaced by `***`.
 * @internal
 */
export function shownUrl(url: URL): string {
  if (!url.password) return url.href;
  const shown = new URL(url.href);
  shown.password = '***';
  return shown.href;
}
