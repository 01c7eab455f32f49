import { arr, obj, answer, opt, str, text } from '../shape';
import type { OutgoingMessage } from '../types';
import { ask, defineOperations, prompt } from './define';

/** A message card: the one shape the bridge and the platform's server API carry. */
const card = obj({ title: text, body: str, actions: opt(arr(obj({ label: text, deep_link: text }))) });

/**
 * `svc.message`.
 * @public
 */
export interface SvcMessage {
  /**
   * Sends a message as the person, from their own client; the host asks them to confirm every time. Needs
   * `room.send`. Works in end-to-end encrypted rooms, where a backend cannot post.
   */
  send(message: OutgoingMessage): Promise<{ event_id: string }>;
}

/** The operations of `svc.message`. */
export const message = defineOperations<SvcMessage>()({
  // The host asks for confirmation on every send, whatever was answered before.
  send: prompt({
    args: 'object',
    params: obj({ room_id: text, body: str, card: opt(card) }),
    result: answer({ event_id: str }),
    scope: 'room.send',
    asks: ask<'send', OutgoingMessage, boolean>('send', 'params', [
      'ERR_PERMISSION_DENIED',
      'the person did not confirm the message.',
    ]),
  }),
});
