/** Receives what a relay bus listener threw, with the tenant of the message it was handling. */
export type RelayBusErrorHandler = (error: unknown, tenant: string) => void;

/** The default {@link RelayBusErrorHandler}: writes the error to `console.error` and goes on. */
export const logRelayBusListenerError: RelayBusErrorHandler = (error, tenant) => {
  console.error(`relay bus listener for tenant ${JSON.stringify(tenant)} threw`, error);
};

/** Calls `listener` with `message`; a throw goes to `onError` (and one thrown there is dropped). */
export function callListener<M>(
  listener: (message: M) => void,
  message: M,
  tenant: string,
  onError: RelayBusErrorHandler,
): void {
  try {
    listener(message);
  } catch (error) {
    try {
      onError(error, tenant);
    } catch {
      // The error handler failed too; the remaining listeners and messages must still be served.
    }
  }
}
