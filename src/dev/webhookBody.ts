/**
 * A webhook's body as `svc dev` and `svc trigger` send it: JSON indented by two spaces, ending in a newline, not the
 * compact text `JSON.stringify` writes. A backend that verifies a body it parsed and wrote again (the commonest
 * webhook mistake) then fails here, as it would against the platform, whose bytes it cannot predict; with compact
 * bodies, writing the parsed body again gave the very bytes that were signed, and the mistake passed every local test.
 * @internal
 */
export const webhookBody = (payload: unknown): string => `${JSON.stringify(payload, null, 2)}\n`;
