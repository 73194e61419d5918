// The `hearthnet` target with `--dialect reference` against the Python reference node (GitHub
// `Ckal/HearthNet` 6e28872), run only when HEARTHNET_REFERENCE_DIR names a reference checkout (skipped
// otherwise, so CI stays offline):
//   HEARTHNET_REFERENCE_DIR=/path/to/HearthNet npx vitest run packages/conformance/src/cli/reference-node.live.test.ts
// The node is started by scripts/oracles/hearthnet-reference.mjs. The reference-form cases pass, every
// finding is reported, and the run ends within its timeouts.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from './cli-io.test-support.js';
import { EXIT_FAILED, runCli } from './run-cli.js';

const raw = process.env['HEARTHNET_REFERENCE_DIR'];
const LIVE =
  raw !== undefined && raw !== '' && existsSync(join(resolve(raw), 'scripts', 'start_mesh_node.py'));

interface ReferenceNode {
  readonly url: string;
  readonly manifest: { readonly community_id: string };
  stop(): Promise<void>;
}

describe.skipIf(!LIVE)('the hearthnet target, --dialect reference, against a live reference node', () => {
  let node: ReferenceNode;
  beforeAll(async () => {
    const url = new URL('../../../../scripts/oracles/hearthnet-reference.mjs', import.meta.url).href;
    const harness = (await import(/* @vite-ignore */ url)) as {
      startReferenceNode(options: { profile: 'demo' | 'full' }): Promise<ReferenceNode>;
    };
    node = await harness.startReferenceNode({ profile: 'demo' });
  }, 120_000);
  afterAll(() => node?.stop());

  it('passes the reference-form cases and reports each of the nine findings', async () => {
    const { io, files } = memoryIo();
    const started = Date.now();
    const args = ['hearthnet', '--node', node.url, '--community', node.manifest.community_id];
    const status = await runCli([...args, '--dialect', 'reference', '--json', 'r.json'], io);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(status).toBe(EXIT_FAILED);
    const report = JSON.parse(files.get('r.json')!) as {
      reports: { results: { id: string; status: string }[] }[];
    };
    const statusOf = Object.fromEntries(
      (report.reports[0]?.results ?? []).map((r) => [
        r.id.replace('hearthnet.reference-node.', ''),
        r.status,
      ]),
    );
    expect(statusOf).toEqual({
      'call.ok': 'passed',
      'call.unknown-capability': 'passed',
      'manifest.lists-call': 'passed',
      health: 'passed',
      'finding.unsigned-call-refused': 'failed',
      'finding.forged-call-refused': 'failed',
      'finding.header-routing': 'failed',
      'finding.signed-answers': 'failed',
      'finding.manifest-signed': 'failed',
      'finding.schema-hashes': 'failed',
      'finding.sync-heads': 'failed',
      'finding.forged-event-refused': 'failed',
      'finding.unsigned-event-refused': 'failed',
    });
  });

  it('calls a capability of --capability in the reference form', async () => {
    const { io, files } = memoryIo();
    const args = ['hearthnet', '--node', node.url, '--community', node.manifest.community_id];
    await runCli(
      [...args, '--dialect', 'reference', '--capability', 'llm.chat', '--params', '{}', '--json', 'r.json'],
      io,
    );
    const report = JSON.parse(files.get('r.json')!) as {
      reports: { results: { id: string; status: string }[] }[];
    };
    expect(report.reports[0]?.results.find((r) => r.id.endsWith('.call.ok'))?.status).toBe('passed');
  });
});
