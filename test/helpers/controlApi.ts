// The dev platform's control API as its own page calls it, for tests that drive a running platform over HTTP.

/** The headers of a request to the control API of an in-process platform (`startDevPlatform`). */
export const platformHeaders = (platform: { origin: string; controlToken: string }) => ({
  origin: platform.origin,
  'x-svc-dev-token': platform.controlToken,
  'content-type': 'application/json',
});

/**
 * The headers of a request to the control API from the platform's page: its exact origin and the launch token the
 * printed URL carries.
 */
export const controlHeaders = (url: URL) =>
  platformHeaders({ origin: url.origin, controlToken: url.searchParams.get('token') ?? '' });

/** Calls the control API of the platform printed as `url` (`POST` with a JSON body, `GET` without one). */
export const controlFetch = (url: URL, method: string, path: string, body?: unknown) =>
  fetch(`${url.origin}${path}`, {
    method,
    headers: controlHeaders(url),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
