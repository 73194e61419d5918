/** The name most cases store their sample under. */
export const SAMPLE_NAME = 'conformance-test';

/** A name no case ever stores. */
export const MISSING_NAME = 'definitely-missing-skill-xyz';

/**
 * The reference suite's sample: a Draft skill whose header is the lowercase `# Status: draft`. Stores
 * must persist it byte for byte (its status needs no rewriting).
 */
export const DRAFT_SAMPLE = '# Skill: conformance-test\n# Status: draft\n\nt:\n    ! hi\n\ndefault: t\n';

/** A Draft skill with non-ASCII text, CRLF line ends and no final newline: all of it must survive. */
export const UNICODE_SAMPLE =
  '# Skill: conformance-unicode\r\n# Status: draft\r\n\r\nt:\r\n    ! 日報 — naïve 🙂\r\n\r\ndefault: t';

/** The draft sample with a different message: a body edit that keeps the Draft status. */
export function editedDraftSample(edit: string): string {
  return DRAFT_SAMPLE.replace('! hi', `! hi, ${edit}`);
}
