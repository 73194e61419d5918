import type { CapabilityNeed } from '../suite.js';

/**
 * For a suite whose implementation is an object of optional functions: each capability, and the members
 * that provide it (all of them). The one table says which cases run and, for a case skipped, what the
 * implementer adds.
 */
export type CapabilityMembers<Impl> = Readonly<Record<string, readonly (keyof Impl & string)[]>>;

/** The capabilities of `table` whose members `implementation` all provides. */
export function providedCapabilities<Impl extends object>(
  implementation: Impl,
  table: CapabilityMembers<Impl>,
): string[] {
  return Object.entries(table)
    .filter(([, members]) => members.every((member) => implementation[member] !== undefined))
    .map(([capability]) => capability);
}

/**
 * What each capability of `table` asks of the implementer, for the skip reason of a case that requires
 * it: e.g. `provide \`parseContentId\` in the HashingImplementation`.
 */
export function memberNeeds<Impl>(
  table: CapabilityMembers<Impl>,
  implementationType: string,
): Record<string, CapabilityNeed> {
  return Object.fromEntries(
    Object.entries(table).map(([capability, members]) => [
      capability,
      { provide: `${members.map((member) => `\`${member}\``).join(' and ')} in the ${implementationType}` },
    ]),
  );
}
