/**
 * Whether a URL's `hostname` names this machine's loopback, as svc dev serves and is reached on it: `127.0.0.1`,
 * `localhost`, or `[::1]` (a URL keeps an IPv6 address's brackets).
 * @internal
 */
export const isLoopbackHost = (hostname: string): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
