import { isSvcError } from '../../protocol/SvcError';

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
  return { code: error.code, message, retriable: error.retriable };
}
