import { notificationParams } from '../notificationParams';
import { bool, type Check, obj, str } from '../shape';
import type { ConfirmRequest, ShareRequest, Toast } from '../types';
import { ask, call, defineOperations, none, notification, prompt } from './define';

/** An http(s) URL. */
const httpUrl: Check<string> = (v, path) =>
  typeof v === 'string' && /^https?:\/\/[^\s/]/i.test(v) ? undefined : `${path} must be an http(s) URL`;

/**
 * `svc.ui`: the host's own UI.
 * @public
 */
export interface SvcUi {
  /** Sets the title shown in the host's bar. */
  setTitle(title: string): void;
  /** Shows a short message. */
  toast(toast: Toast): void;
  /** Asks the person a yes/no question; true when they agreed. */
  confirm(request: ConfirmRequest): Promise<boolean>;
  /** Opens an http(s) URL in the system browser, never an in-app browser. */
  openExternal(url: string): Promise<void>;
  /** Closes the mini app. */
  close(): void;
  /** Opens the host's share sheet. */
  share(request: ShareRequest): Promise<void>;
}

/** The operations of `svc.ui`. */
export const ui = defineOperations<SvcUi>()({
  setTitle: notification({ args: ['title'], params: notificationParams['ui.setTitle'] }),
  toast: notification({ args: 'object', params: notificationParams['ui.toast'] }),
  // The answer is the result: no effect runs.
  confirm: prompt({
    args: 'object',
    params: obj({ title: str, body: str }),
    result: bool,
    effect: false,
    asks: ask<'confirm', ConfirmRequest, boolean>('confirm', 'params'),
  }),
  openExternal: call({ args: ['url'], params: obj({ url: httpUrl }), result: none }),
  close: notification({ args: [], params: notificationParams['ui.close'] }),
  share: prompt({
    args: 'object',
    params: obj({ title: str, url: httpUrl }),
    result: none,
    asks: ask<'share', ShareRequest, boolean>('share', 'params', [
      'ERR_CANCELLED',
      'the person dismissed the share sheet.',
    ]),
  }),
});
