import { arr, blob, bool, num, obj, answer, opt, str, text } from '../shape';
import type { PickOptions, SaveFile, SvcFile } from '../types';
import { ask, defineOperations, prompt } from './define';

/**
 * `svc.files`: files in the person's service storage.
 * @public
 */
export interface SvcFiles {
  /** Lets the person pick files from their service storage. Needs `files.read`. */
  pick(options?: PickOptions): Promise<SvcFile[]>;
  /** Saves a file into the person's service storage. Needs `files.write`. */
  save(file: SaveFile): Promise<{ file_id: string }>;
}

/** The operations of `svc.files`. */
export const files = defineOperations<SvcFiles>()({
  // The effect offers the files; the person picks among those that fit `accept`.
  pick: prompt({
    args: 'object',
    params: obj({ accept: opt(arr(text)), multiple: opt(bool) }),
    result: arr(answer({ file_id: str, name: str, type: str, size: num, blob })),
    scope: 'files.read',
    asks: ask<'pick', { options: PickOptions; offered: SvcFile[] }, SvcFile[] | null>('pick', 'rule', [
      'ERR_CANCELLED',
      'the person cancelled the picker.',
    ]),
  }),
  save: prompt({
    args: 'object',
    params: obj({ name: text, blob }),
    result: answer({ file_id: str }),
    scope: 'files.write',
  }),
});
