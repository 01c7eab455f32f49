import { SvcError } from '../protocol/SvcError';

/**
 * The rejection of an invocation its invoker cancelled (its signal aborted): one error, whether the host's core or
 * its action rules notice first.
 */
export const cancelled = (name: string): SvcError =>
  new SvcError('ERR_CANCELLED', `invokeAction('${name}'): the invoker cancelled it (its signal aborted).`);
