/**
 * A message pipe between the app and its host: a MessagePort, a native WebView bridge, or an in-memory pair.
 * @public
 */
export interface Transport {
  /**
   * Sends one message. May throw (a value that cannot be cloned) or return a rejecting promise (an async encoder);
   * either rejects the call that sent it.
   */
  send(message: unknown): void | Promise<void>;
  /** Sets the one receiver of inbound messages. */
  listen(receive: (message: unknown) => void): void;
  /** Stops delivery both ways and frees the pipe. */
  close(): void;
}
