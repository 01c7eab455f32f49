import type { Server } from 'node:http';

/**
 * Closes an HTTP server and every connection it holds, kept-alive ones included (`server.close` alone waits for
 * them). The messenger origin's WebSockets are closed before, by the platform's stop.
 * @internal
 */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((ok) => server.close(() => ok()));
}
