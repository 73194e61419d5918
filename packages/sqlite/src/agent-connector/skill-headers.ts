import { readStatusHeader } from '@agentwire/agent-connector';

/** A `# Description: <text>` header line; the spaces around the key never cross a line break. */
const DESCRIPTION_LINE =
  /^#[^\S\n\r\u2028\u2029]*Description[^\S\n\r\u2028\u2029]*:[^\S\n\r\u2028\u2029]*(.+?)[^\S\n\r\u2028\u2029]*$/m;

/**
 * The text of a skill body's first `# Description:` header, or `undefined` without one: what `SkillMeta`
 * reports as `description` when `store()`'s metadata does not give one.
 *
 * @example
 * descriptionOfSkill('# Skill: hello\n# Description: Says hi\n'); // 'Says hi'
 */
export function descriptionOfSkill(source: string): string | undefined {
  return DESCRIPTION_LINE.exec(source)?.[1];
}

/**
 * Whether a skill body is Approved with a v3 approval signature in its status header
 * (`# Status: Approved v3:<signature>`): the default test of secured mode. It checks that a signature is
 * present, not that it is valid — stores never verify approval; the runtime's gate does.
 *
 * @example
 * hasApprovalSignature('# Status: Approved v3:MEUCIQ...\n'); // true
 * hasApprovalSignature('# Status: Approved\n'); // false
 */
export function hasApprovalSignature(source: string): boolean {
  const header = readStatusHeader(source);
  return header?.status === 'Approved' && /^v3:\S+/.test(header.rest);
}
