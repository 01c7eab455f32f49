/**
 * One open messenger page, as the platform's events reach it: what the agent bridge needs to run a call in it, and
 * nothing of how its connection is served.
 * @internal
 */
export interface OpenPage {
  /** Sends one event, its data already serialised as JSON text; a no-op once the page closed. */
  send(type: string, data: string): void;
  /** Whether the page's connection ended (the tab closed or reloaded, or the platform stopped). */
  readonly closed: boolean;
  /** Calls `listener` once when the page closes; returns a function that removes it. */
  onClose(listener: () => void): () => void;
}

/**
 * The open messenger pages of a platform: the seam between the platform (which serves their connections) and the
 * agent bridge (which relays calls to the newest one).
 * @internal
 */
export interface PageChannel {
  /** The open pages, oldest first. */
  pages(): readonly OpenPage[];
  /** Calls `listener` each time a page opens; returns a function that removes it. */
  onOpen(listener: (page: OpenPage) => void): () => void;
}
