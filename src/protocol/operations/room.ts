import { bool, nullable, num, answer, opt, str } from '../shape';
import type { Room } from '../types';
import { call, defineOperations } from './define';

/**
 * `svc.room`.
 * @public
 */
export interface SvcRoom {
  /** The room the mini app was opened from, or `null` when launched from the home grid (the common case). Needs `room.context`. */
  current(): Promise<Room | null>;
}

/** The operations of `svc.room`. */
export const room = defineOperations<SvcRoom>()({
  current: call({
    result: nullable(answer({ room_id: str, name: opt(str), is_encrypted: bool, member_count: num })),
    scope: 'room.context',
  }),
});
