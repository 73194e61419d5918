/** Capability name endings whose responses must be verified (contract §5.2). */
const MUTATING_SUFFIXES = ['post', 'invite', 'revoke', 'ingest', 'expire'] as const;

/**
 * Whether a client must verify the response signature of a capability (contract §5.2): every
 * `*.post`, `*.invite`, `*.revoke`, `*.ingest`, `*.expire`, and `chat.send`. Clients may ignore the
 * signature of the others.
 *
 * @example
 * isResponseSignatureMandatory('market.post'); // true
 * isResponseSignatureMandatory('market.list'); // false
 */
export function isResponseSignatureMandatory(capability: string): boolean {
  if (capability === 'chat.send') return true;
  const last = capability.slice(capability.lastIndexOf('.') + 1);
  return capability.includes('.') && (MUTATING_SUFFIXES as readonly string[]).includes(last);
}
