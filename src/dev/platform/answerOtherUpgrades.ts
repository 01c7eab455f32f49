import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Request headers that only ask for the upgrade: dropped when the request is answered as plain HTTP/1.1. */
const UPGRADE_ONLY = new Set(['upgrade', 'http2-settings']);

/**
 * Makes `server` answer a request that asks to upgrade to anything but a WebSocket (`Upgrade: h2c`, which curl's
 * `--http2` and Java's default HttpClient send) as the plain HTTP/1.1 request it also is, which is what a server that
 * does not take the upgrade must do. Without this, Node hands every request that carries `Upgrade` to the `upgrade`
 * listeners once there is one (the pages' WebSockets), @hono/node-server's listener ignores all but `websocket`, and
 * the request is never answered.
 *
 * Node has no way to say "not this one" before Node 24's `shouldUpgradeCallback`, so the request is given back to
 * the server: its head is written out again without the upgrade headers, put back in front of what the socket has
 * not read yet (the body, the next request), and the socket starts over as a new connection. Call it after the
 * WebSocket listener is on `server`: that listener is then called from here, so it still sees itself as the only
 * one (@hono/node-server refuses an upgrade the app turned down, with its status, only when it is alone).
 * @internal
 */
export function answerOtherUpgrades(server: Server): void {
  const webSocket = server.listeners('upgrade') as ((request: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (request.headers.upgrade?.toLowerCase() === 'websocket') {
      for (const listener of webSocket) listener.call(server, request, socket, head);
      return;
    }
    socket.unshift(Buffer.concat([Buffer.from(plainHead(request), 'latin1'), head]));
    server.emit('connection', socket);
  });
}

/** The request's head as received, less what asks for the upgrade (Node reads header values as latin1). */
function plainHead(request: IncomingMessage): string {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [name = '', value = ''] = [raw[i], raw[i + 1]];
    const key = name.toLowerCase();
    if (UPGRADE_ONLY.has(key)) continue;
    if (key === 'connection') {
      // `Connection: Upgrade, HTTP2-Settings` names the headers dropped; any other option (keep-alive, close) stays.
      const options = value.split(',').filter((option) => !UPGRADE_ONLY.has(option.trim().toLowerCase()));
      if (options.length > 0) lines.push(`${name}: ${options.join(',')}`);
      continue;
    }
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}
