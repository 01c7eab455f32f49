/**
 * What the host's UI showed, in order.
 * @public
 */
export interface MockUi {
  /** The current title (the last `setTitle`). */
  title: string | undefined;
  /** Every title set. */
  titles: string[];
  /** Every toast, `kind` defaulting to `'info'`. */
  toasts: { message: string; kind: 'info' | 'success' | 'error' }[];
  /** Every URL handed to the system browser. */
  opened: string[];
  /** Every share. */
  shares: { title: string; url: string }[];
  /** Every `svc.ui.confirm()` asked, with the answer. */
  confirms: { title: string; body: string; answer: boolean }[];
  /** How many times `svc.ui.close()` was called. */
  closed: number;
}
