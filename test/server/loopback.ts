// Real HTTP on 127.0.0.1 for the server entry's tests: a Node server around a Fetch handler or a Node listener.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleNode } from '../../src/server';

export interface Loopback {
  url: string;
  close(): Promise<void>;
}

/** Serves a Node listener on a free loopback port. */
export async function serveNode(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Loopback> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves a Fetch handler on a free loopback port. */
export function serveFetch(handle: (request: Request) => Promise<Response>): Promise<Loopback> {
  const node = handleNode(handle);
  return serveNode((req, res) => void node(req, res));
}
