import { isSvcError } from '../../protocol/SvcError';
import { LIMITS } from '../limits';

/**
 * The error an agent is told: the SvcError's code and sentence without the function names the host's side puts
 * before it, the `svc.<method>(): ` of an app's own message or the host rules' `invokeAction('<name>'): ` (the agent
 * called a tool, not these functions).
 */
export function agentError(error: unknown): { code: string; message: string; retriable: boolean } {
  if (!isSvcError(error)) return { code: 'ERR_INTERNAL', message: String(error), retriable: false };
  const prefix = error.method ? `svc.${error.method}(): ` : '';
  const own = prefix && error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  const message = own.replace(/^invokeAction\((?:'[^']*')?\): /, '');
  // A code is a word such as ERR_QUOTA; one longer than svc dev takes (an app's code holding a token, say) is not
  // passed on, cut or whole: the handler's failure is, with its sentence.
  if (error.code.length > LIMITS.id)
    return {
      code: 'ERR_ACTION_FAILED',
      message: `the handler failed with an error code of ${error.code.length} characters, more than the ${LIMITS.id} a code may have (so it is left out): ${message}`,
      retriable: error.retriable,
    };
  return { code: error.code, message, retriable: error.retriable };
}
