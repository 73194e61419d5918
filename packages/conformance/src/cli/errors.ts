/** The CLI was given arguments it does not understand. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
  readonly code = 'cli_usage';
}
