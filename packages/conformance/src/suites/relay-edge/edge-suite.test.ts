import { describe, expect, it } from 'vitest';
import sideChannelsFixture from '../../../fixtures/relay/edge-side-channels.json' with { type: 'json' };
import verifiersFixture from '../../../fixtures/relay/edge-verifiers.json' with { type: 'json' };
import webhooksFixture from '../../../fixtures/relay/edge-webhooks.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { agentwireRelayEdge } from './agentwire-edge.js';
import type { EdgeConnectorUnderTest, RelayEdgeImplementation } from './edge-implementation.js';
import { edgeSuite } from './edge-suite.js';

const TOTAL = verifiersFixture.cases.length + sideChannelsFixture.cases.length + webhooksFixture.cases.length;

async function failedIds(implementation: RelayEdgeImplementation): Promise<string[]> {
  const report = await runSuite(edgeSuite(implementation));
  return report.results.filter((r) => r.status === 'failed').map((r) => r.id);
}

/** The agentwire connector, with `handle` replaced by `rewrite(request, original)`. */
function withHandle(
  rewrite: (
    request: Parameters<EdgeConnectorUnderTest['handle']>[0],
    original: EdgeConnectorUnderTest['handle'],
  ) => ReturnType<EdgeConnectorUnderTest['handle']>,
): RelayEdgeImplementation {
  return {
    ...agentwireRelayEdge,
    connector: async (world) => {
      const connector = await agentwireRelayEdge.connector!(world);
      return { ...connector, handle: (request) => rewrite(request, (r) => connector.handle(r)) };
    },
  };
}

describe('edgeSuite', () => {
  it('passes every case against @agentwire/relay/edge, with nothing skipped', async () => {
    const report = await runSuite(edgeSuite(agentwireRelayEdge));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(TOTAL);
  });

  it('reads a verifier fixture with cases of every provider and of the WeCom reply', () => {
    const kinds = new Set(
      verifiersFixture.cases.map((c) => (c.operation === 'verify' ? c.provider : c.operation)),
    );
    expect([...kinds].sort()).toEqual(['discord', 'encrypt_reply', 'twilio', 'wecom']);
  });

  it('has one case per fixture case, grading the SDK-only judgement calls as recommended', () => {
    const cases = edgeSuite(agentwireRelayEdge).cases;
    expect(cases).toHaveLength(TOTAL);
    const level = (id: string) => cases.find((c) => c.id === id)?.level;
    expect(level('relay.edge.verifiers.discord-ping-valid')).toBe('required');
    expect(level('relay.edge.side-channels.enroll-used-token-refused')).toBe('required');
    expect(level('relay.edge.side-channels.provision-other-tenants-gateway')).toBe('recommended');
    expect(level('relay.edge.sanitiser.discord-guild-command')).toBe('required');
    expect(level('relay.edge.webhooks.discord-guild-command-deferred')).toBe('required');
    expect(level('relay.edge.webhooks.wecom-not-xml-refused')).toBe('recommended');
  });

  it('skips what an implementation does not offer', async () => {
    const { verifyDiscord, errorCode } = agentwireRelayEdge;
    const report = await runSuite(edgeSuite({ verifyDiscord: verifyDiscord!, errorCode: errorCode! }));
    expect(report.ok).toBe(true);
    const discordCases = verifiersFixture.cases.filter((c) => c.provider === 'discord').length;
    expect(report.counts.passed).toBe(discordCases);
    expect(report.counts.skipped).toBe(TOTAL - discordCases);
  });

  it('fails a Discord verifier without a skew check on exactly the stale cases', async () => {
    const failed = await failedIds({
      ...agentwireRelayEdge,
      verifyDiscord: (request, options) =>
        agentwireRelayEdge.verifyDiscord!(request, { ...options, maxSkewSeconds: 1e9 }),
    });
    expect(failed.length).toBeGreaterThan(0);
    expect(
      failed.every((id) => id.startsWith('relay.edge.verifiers.discord-') && /stale|future/.test(id)),
    ).toBe(true);
  });

  it('fails a verifier answering the wrong refusal code, and only when the code is compared', async () => {
    const wrongCodes = { ...agentwireRelayEdge, errorCode: () => 'bad_signature' };
    const failed = await failedIds(wrongCodes);
    expect(failed).toContain('relay.edge.verifiers.discord-stale-timestamp');
    expect(failed).not.toContain('relay.edge.verifiers.discord-tampered-body');
    const { errorCode: _ignored, ...withoutCodes } = wrongCodes;
    expect(await failedIds(withoutCodes)).toEqual([]);
  });

  it('fails a connector whose enrollment tokens can be used twice', async () => {
    const failed = await failedIds(
      withHandle(async (request, original) => {
        const response = await original(request);
        if (request.path !== '/relay/enroll' || response.status !== 403) return response;
        const body = JSON.stringify({
          secret: 's',
          deliveryKey: 'd',
          tenant: 'tenant-a',
          gatewayId: 'gw-new-2',
        });
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: new TextEncoder().encode(body),
        };
      }),
    );
    expect(failed).toContain('relay.edge.side-channels.enroll-used-token-refused');
    expect(failed).toContain('relay.edge.side-channels.enroll-unknown-token-refused');
    expect(failed.every((id) => id.includes('enroll'))).toBe(true);
  });

  it('fails a media endpoint that serves other tenants, and compares refusal codes only when declared', async () => {
    const leaky = withHandle(async (request, original) => {
      if (!request.path.startsWith('/relay/media/')) return original(request);
      const ownerToken = request.headers.find(([name]) => name === 'Authorization');
      const response = await original(request);
      return response.status === 404 && ownerToken !== undefined
        ? original({ ...request, headers: request.headers.filter(([name]) => name !== 'Authorization') })
        : response;
    });
    const failed = await failedIds(leaky);
    expect(failed).toContain('relay.edge.side-channels.media-download-other-tenant');
    expect(failed).toContain('relay.edge.side-channels.media-download-unknown-id');
    const codes = await failedIds(
      withHandle(async (request, original) => {
        const response = await original(request);
        if (response.status !== 401) return response;
        return { ...response, body: new TextEncoder().encode('{"error":"nope"}') };
      }),
    );
    expect(codes).toContain('relay.edge.side-channels.policy-expired-token');
    expect(
      codes.every((id) => id.includes('no-bearer') || id.includes('token') || id.includes('identity')),
    ).toBe(true);
  });

  it('fails a sanitiser that leaves the token in or binds one dialect only', async () => {
    const sanitise = agentwireRelayEdge.sanitiseDiscordInteraction!;
    const leaking = await failedIds({
      ...agentwireRelayEdge,
      sanitiseDiscordInteraction: async (body, options) => ({
        ...(await sanitise(body, options)),
        forwardedBody: body,
      }),
    });
    expect(leaking).toContain('relay.edge.sanitiser.discord-guild-command');
    expect(leaking).not.toContain('relay.edge.sanitiser.discord-no-token');
    const oneDialect = await failedIds({
      ...agentwireRelayEdge,
      sanitiseDiscordInteraction: async (body, options) => {
        const result = await sanitise(body, options);
        return { ...result, bindings: result.bindings.filter((b) => b.sessionKey.includes(':discord:')) };
      },
    });
    expect(oneDialect).toContain('relay.edge.sanitiser.discord-dm-command');
    expect(oneDialect).not.toContain('relay.edge.sanitiser.discord-no-token');
  });

  it('fails webhook edges that leak signature headers, misanswer a component or route a DM by its user first', async () => {
    const discord = agentwireRelayEdge.discordWebhookEdge!;
    const leaky = await failedIds({
      ...agentwireRelayEdge,
      discordWebhookEdge: async (world) => {
        const edge = await discord(world);
        return {
          ...edge,
          handoffs: async () =>
            (await edge.handoffs()).map((handoff) =>
              handoff.type === 'forward'
                ? { ...handoff, headers: [...handoff.headers, ['x-signature-ed25519', 'ab'] as const] }
                : handoff,
            ),
        };
      },
    });
    expect(leaky).toContain('relay.edge.webhooks.discord-guild-command-deferred');
    expect(leaky.every((id) => id.startsWith('relay.edge.webhooks.discord-'))).toBe(true);
    const alwaysFive = await failedIds({
      ...agentwireRelayEdge,
      discordWebhookEdge: async (world) => {
        const edge = await discord(world);
        return {
          ...edge,
          handle: async (request) => {
            const response = await edge.handle(request);
            const text = new TextDecoder().decode(response.body);
            return text === '{"type":6}'
              ? { ...response, body: new TextEncoder().encode('{"type":5}') }
              : response;
          },
        };
      },
    });
    expect(alwaysFive).toEqual(['relay.edge.webhooks.discord-component-deferred-update']);
    const userFirst = await failedIds({
      ...agentwireRelayEdge,
      discordWebhookEdge: (world) =>
        discord({ ...world, routes: world.routes.filter(([, key]) => key !== '901') }),
    });
    expect(userFirst).toContain('relay.edge.webhooks.discord-dm-routed-by-channel-first');
  });

  it('skips the webhook cases of a provider whose handler is not offered', async () => {
    const { twilioWebhookEdge: _twilio, ...withoutTwilio } = agentwireRelayEdge;
    const report = await runSuite(edgeSuite(withoutTwilio));
    const twilioCases = webhooksFixture.cases.filter((c) => c.provider === 'twilio').length;
    expect(report.ok).toBe(true);
    expect(report.counts.skipped).toBe(twilioCases);
  });
});
