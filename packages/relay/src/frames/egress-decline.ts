/** The result `code` of a definite egress refusal. */
export const EGRESS_DECLINED_CODE = 'egress_declined';

/** A failed result that tells the gateway the connector refused to egress to that target. */
export interface EgressDeclinedResult {
  readonly success: false;
  readonly code: typeof EGRESS_DECLINED_CODE;
  readonly error: string;
}

/**
 * The uniform refusal result: `code: "egress_declined"` plus the text newer gateways also recognise,
 * `"<platform> egress declined: target is not an approved destination for this connection"`. It never
 * carries `ambiguous` (a decline is definite). Note that the baseline gateway still retries a refused
 * `send` once as plain text.
 *
 * @example
 * egressDeclinedResult('discord');
 * // { success: false, code: 'egress_declined',
 * //   error: 'discord egress declined: target is not an approved destination for this connection' }
 */
export function egressDeclinedResult(platform: string): EgressDeclinedResult {
  return {
    success: false,
    code: EGRESS_DECLINED_CODE,
    error: `${platform} egress declined: target is not an approved destination for this connection`,
  };
}

/**
 * Whether a result is an egress refusal as newer gateways read it: `code === "egress_declined"`, or an
 * `error` text containing `egress declined:` in any case.
 */
export function isEgressDeclined(result: Readonly<Record<string, unknown>>): boolean {
  if (result['code'] === EGRESS_DECLINED_CODE) return true;
  const error = result['error'];
  return typeof error === 'string' && error.toLowerCase().includes('egress declined:');
}
