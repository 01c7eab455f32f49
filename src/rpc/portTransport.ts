import type { Transport } from './Transport';

/**
 * A transport over a `MessagePort` (the browser's, or Node's global `MessageChannel`).
 * @public
 */
export function portTransport(port: MessagePort): Transport {
  return {
    send: (message) => port.postMessage(message),
    listen(receive) {
      // Assigning onmessage also starts the port.
      port.onmessage = (event) => receive(event.data);
    },
    close() {
      port.onmessage = null;
      port.close();
    },
  };
}
