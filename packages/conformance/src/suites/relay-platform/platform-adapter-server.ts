import { randomBytes } from 'node:crypto';
import { type CapabilityDescriptor, descriptorSupportsOp } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer, type RelayServer } from '@agentwire/relay/server';
import { fail } from '../../assert.js';
import type { SuiteSetup } from '../../suite.js';
import {
  CHECKED_OPS,
  OBSERVED_PLATFORM,
  PLATFORM_REFUSAL,
  type PlatformAdapterContext,
  type PlatformAdapterUnderTest,
} from './platform-adapter-subject.js';

// The Node half of `relay.platform-adapter`: a relay server serving the adapter, and the gateway client.

const GATEWAY_ID = 'gw-platform-adapter-suite';
const TENANT = 'tenant-platform-adapter-suite';

/**
 * Serves the adapter on a fresh relay server (127.0.0.1, port 0) and connects the gateway client to it:
 * the setup of `platformAdapterSuite`, with the capabilities the handshake shows.
 */
export async function servePlatformAdapter(
  subject: PlatformAdapterUnderTest,
  patienceMs: number,
): Promise<SuiteSetup<PlatformAdapterContext>> {
  const platform = subject.adapter.descriptor.platform;
  const secret = randomBytes(24).toString('hex');
  let server: RelayServer | undefined;
  let gateway: WebSocketRelayTransport | undefined;
  const dispose = async () => {
    await gateway?.disconnect();
    await server?.close();
    await subject.dispose?.();
  };
  let descriptor: CapabilityDescriptor;
  try {
    server = await createRelayServer({
      port: 0,
      host: '127.0.0.1',
      authenticate: (gatewayId) => (gatewayId === GATEWAY_ID ? { tenant: TENANT, secrets: [secret] } : null),
      platforms: { [platform]: subject.adapter },
      outboundTimeoutMs: patienceMs,
    });
    gateway = new WebSocketRelayTransport({
      url: `http://127.0.0.1:${server.port}`,
      gatewayId: GATEWAY_ID,
      secret,
      identities: [{ platform, botId: '' }],
      handshakeTimeoutMs: patienceMs,
      // The server answers a slow op itself when outboundTimeoutMs passes: wait a little longer.
      outboundTimeoutMs: patienceMs * 2,
      reconnect: false,
    });
    if (!(await gateway.connect()))
      fail(`the gateway client could not dial the relay server serving ${platform}`);
    descriptor = await gateway.handshake();
  } catch (error) {
    await dispose();
    throw error;
  }
  const capabilities = new Set<string>();
  for (const op of CHECKED_OPS) if (descriptorSupportsOp(descriptor, op)) capabilities.add(`op:${op}`);
  if (subject.refusal !== undefined) capabilities.add(PLATFORM_REFUSAL);
  if (subject.observe !== undefined) capabilities.add(OBSERVED_PLATFORM);
  const ctx: PlatformAdapterContext = {
    gateway,
    platform,
    chatId: subject.chatId,
    ...(subject.refusal === undefined ? {} : { refusal: subject.refusal }),
    ...(subject.observe === undefined ? {} : { observe: subject.observe }),
  };
  return { ctx, capabilities, dispose };
}
