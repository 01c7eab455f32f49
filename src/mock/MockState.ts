import type { OutgoingMessage } from '../protocol/types';
import type { MockUi } from './types';

/**
 * A message the person sent through `svc.message.send()` (after confirming it).
 * @public
 */
export interface MockSentMessage extends OutgoingMessage {
  /** The id the host answered with. */
  event_id: string;
}

/**
 * A file saved through `svc.files.save()`.
 * @public
 */
export interface MockSavedFile {
  /** The id the host answered with. */
  file_id: string;
  /** The name the app gave. */
  name: string;
  /** The content. */
  blob: Blob;
}

/** What the mock records of the app's effects, in order. */
export interface MockRecords {
  ui: MockUi;
  sent: MockSentMessage[];
  saved: MockSavedFile[];
  progress: { action: string; message: string }[];
  unanswered: string[];
  /** A counter for the ids the mock hands out. */
  seq: number;
}

/** A fresh, empty UI record. */
export const emptyUi = (): MockUi => ({
  title: undefined,
  titles: [],
  toasts: [],
  opened: [],
  shares: [],
  confirms: [],
  closed: 0,
});
