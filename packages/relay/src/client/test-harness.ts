// Shared setup of this folder's tests: a fake connector and a transport dialling it, both closed by
// `closeAll()` (call it in afterEach).
import { DISCORD_DESCRIPTOR } from '../testing/test-support.js';
import type { RelayClientState, WebSocketRelayTransportOptions } from './options.js';
import { FakeConnector, type FakeConnectorBehaviour } from './test-connector.js';
import { WebSocketRelayTransport } from './web-socket-relay-transport.js';

/** A transport, the connector it dials, and what the transport reported. */
export interface TestPair {
  readonly connector: FakeConnector;
  readonly transport: WebSocketRelayTransport;
  /** Every `error` event. */
  readonly errors: unknown[];
  /** Every state the transport went through, starting with `idle`. */
  readonly states: RelayClientState[];
}

const open: TestPair[] = [];

/**
 * Starts a connector that answers every hello with the Discord descriptor (unless `behaviour` says
 * otherwise) and a transport for it with re-dials off (unless `options` says otherwise).
 */
export async function startPair(
  behaviour: FakeConnectorBehaviour = {},
  options: Partial<WebSocketRelayTransportOptions> = {},
): Promise<TestPair> {
  const connector = await FakeConnector.start({ descriptor: () => DISCORD_DESCRIPTOR, ...behaviour });
  const transport = new WebSocketRelayTransport({ url: connector.url, reconnect: false, ...options });
  const errors: unknown[] = [];
  const states: RelayClientState[] = [transport.state];
  transport.on('error', (error) => errors.push(error));
  transport.on('state', (state) => states.push(state));
  const pair = { connector, transport, errors, states };
  open.push(pair);
  return pair;
}

/** {@link startPair}, then `connect()` and `handshake()`. */
export async function connectedPair(
  behaviour: FakeConnectorBehaviour = {},
  options: Partial<WebSocketRelayTransportOptions> = {},
): Promise<TestPair> {
  const pair = await startPair(behaviour, options);
  if (!(await pair.transport.connect())) throw new Error('the test transport did not connect');
  await pair.transport.handshake();
  return pair;
}

/** Disconnects every transport and stops every connector started since the last call. */
export async function closeAll(): Promise<void> {
  for (const pair of open.splice(0).reverse()) {
    await pair.transport.disconnect();
    await pair.connector.close();
  }
}

/** Settles `promise` into its value or its rejection reason. */
export function settle<T>(promise: Promise<T>): Promise<T | unknown> {
  return promise.catch((error: unknown) => error);
}
