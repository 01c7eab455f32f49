import { cloneMessage } from './cloneMessage';
import type { Transport } from './Transport';

/**
 * Two linked in-memory transports, for tests: what one sends, the other receives, structured-cloned like a real
 * postMessage (so a value a browser could not send fails here too), and delivered asynchronously.
 * Closing either end closes both, as with an entangled MessagePort.
 * @public
 */
export function createMemoryPair(): [Transport, Transport] {
  const receivers: ((m: unknown) => void)[] = [() => {}, () => {}];
  let open = true;
  const end = (self: 0 | 1): Transport => ({
    send(message) {
      if (!open) return;
      const copy = cloneMessage(message);
      queueMicrotask(() => open && receivers[1 - self]!(copy));
    },
    listen(receive) {
      receivers[self] = receive;
    },
    close() {
      open = false;
    },
  });
  return [end(0), end(1)];
}
