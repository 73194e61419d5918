/** Which handler a `StubConnector` push driver needed. */
export type StubHandlerKind = 'inbound' | 'interrupt_inbound' | 'passthrough';

/**
 * A `StubConnector` push driver was called before the code under test installed the handler it
 * drives (in the gateway: before the adapter's `connect()`). Mirrors the Python stub's
 * `RuntimeError("no inbound handler registered …")`.
 */
export class StubHandlerMissingError extends Error {
  override readonly name = 'StubHandlerMissingError';
  readonly code = 'handler_missing';
  /** The handler that was missing. */
  readonly handler: StubHandlerKind;

  constructor(handler: StubHandlerKind) {
    super(`no ${handler} handler registered (install it, e.g. by connecting the adapter, before pushing)`);
    this.handler = handler;
  }
}
