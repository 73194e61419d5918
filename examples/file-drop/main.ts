// Deliver to agents by dropping one JSON file per dispatch: the file layout, a safe retry with the
// same dispatch_id, and a wake that degrades to a file (woken: false). Runs in a temp directory and
// asserts: `pnpm --filter @agentwire-examples/file-drop start`.
import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeliveryMeta } from '@agentwire/agent-connector';
import { FileDropAgentConnector } from '@agentwire/agent-connector/file-drop';

const dir = await mkdtemp(join(tmpdir(), 'agentwire-file-drop-'));
try {
  const connector = new FileDropAgentConnector({ dir, agents: ['perry', 'quinn'] });
  assert.equal(await connector.health_check(), true);
  assert.deepEqual(
    (await connector.list_agents()).map((a) => a.agent_id),
    ['perry', 'quinn'],
  );

  const meta = createDeliveryMeta({ skill_name: 'daily-digest' });
  const payload = { kind: 'augment', content: 'Digest: 3 new posts', meta } as const;
  const receipt = await connector.deliver('perry', payload);
  const file = join(dir, 'perry', `${meta.dispatch_id}.json`);
  const written = JSON.parse(await readFile(file, 'utf8'));
  assert.equal(written.agent_id, 'perry');
  assert.equal(written.payload.meta.dispatch_id, meta.dispatch_id);
  console.log('deliver      ', receipt);

  // A retry of the same dispatch is idempotent: same file, no duplicate.
  await connector.deliver('perry', payload);
  assert.deepEqual(await readdir(join(dir, 'perry')), [`${meta.dispatch_id}.json`]);

  // Files have no wake mechanism: the context is dropped as a file and the receipt says so.
  const woken = await connector.wake('quinn@standup', { context: 'stand-up in 5 minutes' });
  assert.equal(woken.woken, false);
  assert.equal(woken.session_id, 'standup');
  console.log('wake         ', woken);
  console.log('files        ', await readdir(join(dir, 'perry')), await readdir(join(dir, 'quinn')));
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log('file-drop example: all assertions passed');
