// An agent's HTTP endpoint that checks the X-Signature HMAC over the exact body bytes, and the
// webhook connector delivering to it, then waking it (once through a wake URL, once without one).
// Runs end to end on 127.0.0.1 and asserts: `pnpm --filter @agentwire-examples/webhook-agent start`.
import { strict as assert } from 'node:assert';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeliveryMeta } from '@agentwire/agent-connector';
import { HttpWebhookAgentConnector } from '@agentwire/agent-connector/webhook';

const SECRET = 'shared-hmac-secret';
const received: { path: string; body: Record<string, unknown> }[] = [];

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

// The receiver: refuse anything whose signature does not match the raw body.
const server = createServer(async (request, response) => {
  const raw = await readBody(request);
  const expected = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
  const given = String(request.headers['x-signature'] ?? '');
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
    response.writeHead(401).end('bad signature');
    return;
  }
  const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  received.push({ path: request.url ?? '', body });
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ delivery_id: `d-${received.length}`, session_id: 'kitchen' }));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  const connector = new HttpWebhookAgentConnector({
    agents: {
      perry: { url: `${base}/perry/deliver`, wake_url: `${base}/perry/wake` },
      quinn: { url: `${base}/quinn/deliver` },
    },
    hmac_secret: SECRET,
    authorization: 'Bearer agent-token',
  });
  assert.equal(await connector.health_check(), true);

  // deliver: body {agent_id, ...payload}, signed; the receiver's delivery_id and session_id come back.
  const meta = createDeliveryMeta({ skill_name: 'daily-digest' });
  const receipt = await connector.deliver('perry', { kind: 'augment', content: 'Digest: 3 new posts', meta });
  assert.equal(receipt.delivery_id, 'd-1');
  assert.equal(receipt.session_id, 'kitchen');
  assert.deepEqual(Object.keys(received[0]?.body ?? {}), ['agent_id', 'kind', 'content', 'meta']);
  console.log('deliver      ', receipt);

  // wake through the configured wake URL.
  const woken = await connector.wake('perry@kitchen', { context: 'stand-up in 5 minutes' });
  assert.equal(woken.woken, true);
  assert.equal(received[1]?.path, '/perry/wake');
  console.log('wake         ', woken);

  // quinn has no wake URL: the context is delivered instead and the receipt says woken: false.
  const degraded = await connector.wake('quinn', { context: 'stand-up in 5 minutes' });
  assert.equal(degraded.woken, false);
  assert.equal(received[2]?.path, '/quinn/deliver');
  console.log('wake (none)  ', degraded);

  // A connector with the wrong secret is refused by the receiver: a typed, non-retryable failure.
  const impostor = new HttpWebhookAgentConnector({
    agents: { perry: { url: `${base}/perry/deliver` } },
    hmac_secret: 'wrong',
  });
  const failure = await impostor.deliver('perry', { kind: 'augment', content: 'x', meta }).catch((e) => e);
  assert.equal(failure.name, 'DeliveryFailedError');
  assert.equal(failure.cause_kind, 'http_status');
  assert.equal(failure.http_status, 401);
  assert.equal(failure.retryable, false);
  console.log('wrong secret ', `${failure.name}: ${failure.message}`);
} finally {
  server.close();
}
console.log('webhook-agent example: all assertions passed');
