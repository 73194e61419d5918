/** The CLI was given arguments it does not understand. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
  readonly code = 'cli_usage';
}

/** The fixture files of this package could not be found next to its code. */
export class FixturesNotFoundError extends Error {
  override readonly name = 'FixturesNotFoundError';
  readonly code = 'fixtures_not_found';
}
