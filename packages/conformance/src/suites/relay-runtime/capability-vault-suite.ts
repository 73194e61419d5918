import type { CapabilityBinding, CapabilityVault } from '@agentwire/relay';
import { assertEqual, assertRefuses, assertTrue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import {
  CAPABILITY_VAULT_SINCE_2_1,
  CAPABILITY_VAULT_SUITE_VERSION,
  pollUntil,
  RELAY_RUNTIME_SUITE_VERSION,
  SHARED_BACKEND_NEEDS,
  sleep,
  uniqueTenant,
  withInstances,
} from './runtime-support.js';

type Case = ConformanceCase<CapabilityVaultContext>;

const since = RELAY_RUNTIME_SUITE_VERSION;
const SECTION = 'CapabilityVault rules; contract §4, §6; relay-reference §9';
const SECTION_SHARED = 'CapabilityVault rules; relay-reference §9; ARCHITECTURE decision 7';
const KIND = 'discord.interaction_token';
const LONG_TTL_MS = 600_000;
/** How often the expiry cases check, each time letting a quarter of the short TTL pass. */
const EXPIRY_CHECKS = 40;

let bindingCounter = 0;

/** A binding with a session key and credential no other case uses. */
function freshBinding(tenant: string, ttl_ms = LONG_TTL_MS): CapabilityBinding {
  bindingCounter += 1;
  return {
    tenant,
    session_key: `agent:main:discord:group:${uniqueTenant('guild')}:${bindingCounter}`,
    kind: KIND,
    credential: `secret-interaction-token-${bindingCounter}-${Math.random().toString(36).slice(2)}`,
    ttl_ms,
  };
}

const found = (credential: string) => ({ found: true, credential });
const ABSENT = { found: false, reason: 'absent' };
const MISMATCH = { found: false, reason: 'tenant_mismatch' };

function resolveBinding(vault: CapabilityVault, binding: CapabilityBinding, tenant = binding.tenant) {
  return vault.resolve(tenant, binding.session_key, binding.kind);
}

/** Lets time pass until `binding` resolves as absent; fails when it never does. */
async function waitUntilExpired(
  ctx: CapabilityVaultContext,
  vault: CapabilityVault,
  binding: CapabilityBinding,
) {
  await ctx.elapse(ctx.shortTtlMs);
  await pollUntil(
    async () => (await resolveBinding(vault, binding)).found === false,
    { attempts: EXPIRY_CHECKS, step: () => ctx.elapse(Math.max(1, ctx.shortTtlMs / 4)) },
    () =>
      `a binding with ttl_ms ${binding.ttl_ms} still resolves after ${EXPIRY_CHECKS / 4 + 1} times its TTL`,
  );
}

function withVault<R>(ctx: CapabilityVaultContext, body: (vault: CapabilityVault) => Promise<R>): Promise<R> {
  return withInstances(ctx.create, 1, ([vault]) => body(vault!));
}

/** Every rule of the `CapabilityVault` interface. */
export function vaultCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('resolve.bound'),
      title: 'resolve by the tenant that bound a credential returns it',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault'));
          await vault.bind(binding);
          assertEqual(await resolveBinding(vault, binding), found(binding.credential), 'lookup');
        }),
    },
    {
      id: id('resolve.absent'),
      title: 'resolve of a (session_key, kind) nobody bound returns absent',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          assertEqual(await resolveBinding(vault, freshBinding(uniqueTenant('vault'))), ABSENT, 'lookup');
        }),
    },
    {
      id: id('resolve.tenant-mismatch'),
      title: 'another tenant gets tenant_mismatch and never the secret',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault-owner'));
          await vault.bind(binding);
          const lookup = await resolveBinding(vault, binding, uniqueTenant('vault-other'));
          assertEqual(lookup, MISMATCH, 'lookup by another tenant');
          assertTrue(
            !JSON.stringify(lookup).includes(binding.credential),
            'the lookup by another tenant carries the secret',
          );
          assertEqual(await resolveBinding(vault, binding), found(binding.credential), 'lookup by the owner');
        }),
    },
    {
      id: id('resolve.keyed-by-session-key-and-kind'),
      title: 'a credential resolves only under its own session key and kind',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault'));
          await vault.bind(binding);
          const { tenant, session_key, kind } = binding;
          assertEqual(await vault.resolve(tenant, session_key, 'slack.response_url'), ABSENT, 'another kind');
          assertEqual(await vault.resolve(tenant, `${session_key}:x`, kind), ABSENT, 'another session key');
          const sibling = { ...freshBinding(tenant), session_key };
          await vault.bind({ ...sibling, kind: 'slack.response_url' });
          assertEqual(await resolveBinding(vault, binding), found(binding.credential), 'the first binding');
          assertEqual(
            await vault.resolve(tenant, session_key, 'slack.response_url'),
            found(sibling.credential),
            'the binding of the other kind',
          );
        }),
    },
    {
      id: id('bind.replaces'),
      title: 'bind of the same (tenant, session_key, kind) replaces the credential',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const first = freshBinding(uniqueTenant('vault'));
          const second = { ...first, credential: `${first.credential}-rotated` };
          await vault.bind(first);
          await vault.bind(second);
          assertEqual(await resolveBinding(vault, first), found(second.credential), 'lookup after rebinding');
        }),
    },
    {
      id: id('bind.replaces-ttl-longer'),
      title: 'rebinding with a longer TTL keeps the credential past the first TTL',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const first = freshBinding(uniqueTenant('vault'), ctx.shortTtlMs);
          const second = { ...first, credential: `${first.credential}-rotated`, ttl_ms: LONG_TTL_MS };
          await vault.bind(first);
          await vault.bind(second);
          await ctx.elapse(ctx.shortTtlMs * 3);
          assertEqual(
            await resolveBinding(vault, first),
            found(second.credential),
            'lookup after the short TTL',
          );
        }),
    },
    {
      id: id('bind.replaces-ttl-shorter'),
      title: 'rebinding with a shorter TTL makes the binding expire after the shorter TTL',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const first = freshBinding(uniqueTenant('vault'));
          await vault.bind(first);
          const second = { ...first, ttl_ms: ctx.shortTtlMs };
          await vault.bind(second);
          await waitUntilExpired(ctx, vault, second);
          assertEqual(await resolveBinding(vault, first), ABSENT, 'lookup after the shorter TTL');
        }),
    },
    {
      id: id('ttl.expires'),
      title: 'a binding reads as absent once its TTL has passed, for its tenant and for others',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault'), ctx.shortTtlMs);
          await vault.bind(binding);
          await waitUntilExpired(ctx, vault, binding);
          assertEqual(await resolveBinding(vault, binding), ABSENT, 'lookup by the owner');
          assertEqual(
            await resolveBinding(vault, binding, uniqueTenant('vault-other')),
            ABSENT,
            'by another',
          );
        }),
    },
    {
      id: id('revoke.own'),
      title: 'revoke by the owner resolves true and removes the binding; a second revoke resolves false',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault'));
          await vault.bind(binding);
          const { tenant, session_key, kind } = binding;
          assertEqual(await vault.revoke(tenant, session_key, kind), true, 'first revoke');
          assertEqual(await resolveBinding(vault, binding), ABSENT, 'lookup after revoke');
          assertEqual(await vault.revoke(tenant, session_key, kind), false, 'second revoke');
        }),
    },
    {
      id: id('revoke.other-tenant'),
      title: "revoke by another tenant resolves false and leaves the owner's binding usable",
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault-owner'));
          await vault.bind(binding);
          const revoked = await vault.revoke(uniqueTenant('vault-other'), binding.session_key, binding.kind);
          assertEqual(revoked, false, 'revoke by another tenant');
          assertEqual(await resolveBinding(vault, binding), found(binding.credential), 'lookup by the owner');
        }),
    },
    {
      id: id('bind.tenants-kept-apart'),
      title:
        "two tenants' bindings of one (session_key, kind) are kept apart: each resolves its own, a revoke removes only its own",
      section: SECTION,
      level: 'recommended',
      since: CAPABILITY_VAULT_SINCE_2_1,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const first = freshBinding(uniqueTenant('vault-a'));
          const second = { ...first, tenant: uniqueTenant('vault-b'), credential: `${first.credential}-b` };
          await vault.bind(first);
          await vault.bind(second);
          assertEqual(await resolveBinding(vault, first), found(first.credential), 'the first tenant');
          assertEqual(await resolveBinding(vault, second), found(second.credential), 'the second tenant');
          assertEqual(
            await resolveBinding(vault, first, uniqueTenant('vault-c')),
            MISMATCH,
            'a third tenant',
          );
          assertEqual(
            await vault.revoke(first.tenant, first.session_key, first.kind),
            true,
            'revoke by the first',
          );
          assertEqual(await resolveBinding(vault, first), MISMATCH, 'the first tenant after its revoke');
          assertEqual(
            await resolveBinding(vault, second),
            found(second.credential),
            'the second after that revoke',
          );
        }),
    },
    {
      id: id('revoke.absent'),
      title: 'revoke of a (session_key, kind) nobody bound resolves false',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault'));
          assertEqual(await vault.revoke(binding.tenant, binding.session_key, binding.kind), false, 'revoke');
        }),
    },
    {
      id: id('revoke.expired'),
      title: 'revoke of an expired binding resolves false',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault'), ctx.shortTtlMs);
          await vault.bind(binding);
          await waitUntilExpired(ctx, vault, binding);
          assertEqual(await vault.revoke(binding.tenant, binding.session_key, binding.kind), false, 'revoke');
        }),
    },
    {
      id: id('arguments.refused'),
      title: 'a malformed binding, ttl_ms or address is refused with invalid_vault_argument naming it (path)',
      section: SECTION,
      level: 'recommended',
      since,
      run: (ctx) =>
        withVault(ctx, async (vault) => {
          const binding = freshBinding(uniqueTenant('vault'));
          const refused = (action: () => Promise<unknown>, path: string, what: string) =>
            assertRefuses(action, { code: 'invalid_vault_argument', path }, what);
          const asBinding = (value: unknown) => value as CapabilityBinding;
          for (const [what, bad] of [
            ['null', null],
            ['an array', [binding]],
            ['a string', 'binding'],
          ] as const) {
            await refused(() => vault.bind(asBinding(bad)), 'binding', `bind of ${what}`);
          }
          for (const ttl_ms of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100', undefined]) {
            await refused(
              () => vault.bind(asBinding({ ...binding, ttl_ms })),
              'binding.ttl_ms',
              `bind with ttl_ms ${String(ttl_ms)}`,
            );
          }
          for (const field of ['tenant', 'session_key', 'kind', 'credential'] as const) {
            for (const [what, bad] of [
              ['an empty', ''],
              ['a numeric', 42],
              ['a lone-surrogate', '\uD800'],
            ] as const) {
              await refused(
                () => vault.bind(asBinding({ ...binding, [field]: bad })),
                `binding.${field}`,
                `bind with ${what} ${field}`,
              );
            }
          }
          const { tenant, session_key } = binding;
          const addresses: readonly [string, [unknown, unknown, unknown]][] = [
            ['tenant', ['', session_key, KIND]],
            ['sessionKey', [tenant, '', KIND]],
            ['kind', [tenant, session_key, 42]],
          ];
          for (const [path, [t, k, kind]] of addresses) {
            await refused(
              () => vault.resolve(t as string, k as string, kind as string),
              path,
              `resolve with a malformed ${path}`,
            );
            await refused(
              () => vault.revoke(t as string, k as string, kind as string),
              path,
              `revoke with a malformed ${path}`,
            );
          }
          assertEqual(await resolveBinding(vault, binding), ABSENT, 'lookup after the refused binds');
        }),
    },
    {
      id: id('close.refuses-use'),
      title: 'after close, bind, resolve and revoke reject with vault_closed',
      section: SECTION,
      level: 'recommended',
      since,
      run: async (ctx) => {
        const vault = await ctx.create();
        const binding = freshBinding(uniqueTenant('vault'));
        await vault.bind(binding);
        await vault.close();
        const closed = (action: () => Promise<unknown>, what: string) =>
          assertRefuses(action, { code: 'vault_closed' }, what);
        await closed(() => vault.bind(binding), 'bind after close');
        await closed(() => resolveBinding(vault, binding), 'resolve after close');
        await closed(
          () => vault.revoke(binding.tenant, binding.session_key, binding.kind),
          'revoke after close',
        );
      },
    },
    {
      id: id('shared.visible-across-instances'),
      title: 'a binding made on one instance resolves, keeps its tenant and is revoked on another',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withInstances(ctx.create, 2, async ([binder, other]) => {
          const binding = freshBinding(uniqueTenant('vault-owner'));
          await binder!.bind(binding);
          assertEqual(await resolveBinding(other!, binding), found(binding.credential), 'lookup elsewhere');
          assertEqual(
            await resolveBinding(other!, binding, uniqueTenant('vault-other')),
            MISMATCH,
            'by another',
          );
          const { tenant, session_key, kind } = binding;
          assertEqual(await other!.revoke(tenant, session_key, kind), true, 'revoke elsewhere');
          assertEqual(await resolveBinding(binder!, binding), ABSENT, 'lookup where it was bound');
        }),
    },
  ];
}

/** Options of {@link capabilityVaultSuite}. */
export interface CapabilityVaultSuiteOptions {
  /** Creates a fresh, open vault. Cases call it once or more and close every vault they create. */
  readonly create: () => CapabilityVault | Promise<CapabilityVault>;
  /**
   * Lets `ms` milliseconds pass for the vaults `create` makes. Give it when they read a clock the
   * caller controls (advance it, resolve at once); without it the expiry cases wait in real time
   * (a few hundred milliseconds each).
   */
  readonly elapse?: (ms: number) => void | Promise<void>;
  /** The short TTL the expiry cases bind with, in milliseconds. Default 100. */
  readonly shortTtlMs?: number;
  /**
   * `true` when vaults from `create` share one backend (e.g. Redis): a binding made through one
   * resolves through another. Capability `shared-backend`.
   */
  readonly sharedBackend?: boolean;
  /** Releases what the caller set up for the run; called after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** The context every case of {@link capabilityVaultSuite} receives. */
export interface CapabilityVaultContext {
  readonly create: () => Promise<CapabilityVault>;
  readonly elapse: (ms: number) => Promise<void>;
  readonly shortTtlMs: number;
}

const SUITE_NAME = 'relay-runtime.vault';

/**
 * The `CapabilityVault` rules (contract §4/§6, relay-reference §9): the credential only for the tenant
 * that bound it (`tenant_mismatch` without the secret for another), keyed by `(session_key, kind)`,
 * `bind` replacing the credential and its TTL, expiry reading as `absent`, `revoke` only by the owner,
 * and — with capability `shared-backend` — bindings seen by another instance. Expiry is checked with a
 * short TTL and `elapse` (real waiting by default), polled a bounded number of times.
 *
 * @example
 * ```ts
 * import { InMemoryCapabilityVault } from '@agentwire/relay/testing';
 * let now = 0;
 * const report = await runSuite(
 *   capabilityVaultSuite({
 *     create: () => new InMemoryCapabilityVault({ now: () => now }),
 *     elapse: (ms) => { now += ms; },
 *   }),
 * );
 * ```
 */
export function capabilityVaultSuite(
  options: CapabilityVaultSuiteOptions,
): ConformanceSuite<CapabilityVaultContext> {
  const capabilities = new Set<string>();
  if (options.sharedBackend === true) capabilities.add('shared-backend');
  const elapse = options.elapse;
  return {
    name: SUITE_NAME,
    version: CAPABILITY_VAULT_SUITE_VERSION,
    description:
      'The CapabilityVault rules: tenant-bound resolve without leaking the secret, (tenant, session_key, ' +
      'kind) keys, bind replacing credential and TTL, expiry, owner-only revoke, bindings shared between instances.',
    cases: vaultCases(SUITE_NAME),
    needs: SHARED_BACKEND_NEEDS,
    setup: () => ({
      ctx: {
        create: async () => options.create(),
        elapse: elapse === undefined ? sleep : async (ms) => elapse(ms),
        shortTtlMs: options.shortTtlMs ?? 100,
      },
      capabilities,
      ...(options.dispose === undefined ? {} : { dispose: options.dispose }),
    }),
  };
}
