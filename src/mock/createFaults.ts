// biome-ignore-all lint/suspicious/noExplicitAny: a fault wraps handlers of every operation, each with its own params and context types (parameters are contravariant)
import { ERROR_CODES } from '../protocol/errorCodes';
import { SvcError } from '../protocol/SvcError';
import type { MockFault } from './types';

type Handler = (params: any, context: any) => unknown;

/** The faults injected into a mock host's operations, and the wrapper that applies them. */
export interface Faults {
  add(method: string, fault: MockFault): void;
  clear(method?: string): void;
  wrap(method: string, handler: Handler): Handler;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the fault table. Faults of one method apply in the order they were added; one with `times` is dropped
 * when used up.
 *
 * @remarks
 * Faults apply where a host's own implementation runs: after `createHost` has checked the arguments and the scope.
 * So a fault on `room.current` shows only once `room.context` is granted, as a real host's failure would.
 */
export function createFaults(): Faults {
  const table = new Map<string, MockFault[]>();

  const take = (method: string): MockFault | undefined => {
    const list = table.get(method);
    const fault = list?.[0];
    if (!fault) return;
    if (fault.times !== undefined && --fault.times <= 0) list!.shift();
    return fault;
  };

  return {
    add(method, fault) {
      if (fault.times !== undefined && !(fault.times >= 1))
        throw new TypeError(`fault on ${method}: times must be 1 or more`);
      table.set(method, [...(table.get(method) ?? []), { ...fault }]);
    },
    clear(method) {
      if (method === undefined) table.clear();
      else table.delete(method);
    },
    wrap: (method, handler) => async (params, context) => {
      const fault = take(method);
      if (!fault) return handler(params, context);
      if (fault.delay) await sleep(fault.delay);
      // Never settles: the client's own timeout is what the app sees, as with a host that went quiet.
      if (fault.hang) return new Promise(() => {});
      if (fault.code) {
        const known = (ERROR_CODES as Record<string, boolean>)[fault.code];
        throw new SvcError(
          fault.code,
          fault.message ?? `injected fault ${fault.code}.`,
          fault.retriable ?? known ?? false,
          method,
        );
      }
      return handler(params, context);
    },
  };
}
