import { cloneMessage } from './cloneMessage';
import type { Transport } from './Transport';

/**
 * Two linked in-memory transports, for tests: what one sends, the other receives, structured-cloned like a real
 * postMessage (so a value a browser could not send fails here too), and delivered asynchronously (a microtask later,
 * under fake timers too).
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
      // A promise's turn, not queueMicrotask: fake timers (Jest's by default) replace queueMicrotask, and a message
      // would then wait for a clock the test never advances.
      void Promise.resolve().then(() => open && receivers[1 - self]!(copy));
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
