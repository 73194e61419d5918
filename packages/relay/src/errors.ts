/**
 * Base class of every error `@agentwire/relay` throws for input it refuses: catch it to handle them
 * all, or catch a family (`DescriptorError`, `FrameError`, `RelayAuthError`, …). `code` is a stable,
 * machine-readable identifier of the condition; `path` names the argument, field or JSON path that
 * failed (`''` or `$` for the value as a whole). Transport failures are `RelayTransportError`s.
 */
export abstract class RelayError extends Error {
  abstract readonly code: string;
  readonly path: string;

  constructor(message: string, path = '', options?: ErrorOptions) {
    super(message, options);
    this.path = path;
  }
}
