/** The session-key dialect of a gateway of the baseline snapshot (2026-07-26); the default dialect. */
export const BASELINE_SESSION_KEY_DIALECT = 'baseline-2026-07-26';
