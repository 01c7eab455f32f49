import { lit, obj, opt, str, text } from './shape';

/**
 * The params checks of the fire-and-forget operations, which the client runs before sending (nobody answers them,
 * so their facade members throw at once). The operation modules use these very checks as the params of their
 * entries, so the host runs the same ones.
 *
 * @remarks
 * A module of its own, beside the shape checks: the operation modules (the source of the client's table) import it,
 * and the client imports it without any operation module, so neither depends on what is generated from the other.
 */
export const notificationParams = {
  'actions.progress': obj({ invocation: text, message: str }),
  'ui.setTitle': obj({ title: str }),
  'ui.toast': obj({ message: text, kind: opt(lit('info', 'success', 'error')) }),
  'ui.close': obj({}),
};
