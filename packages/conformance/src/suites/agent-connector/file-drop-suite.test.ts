import { FileDropAgentConnector } from '@agentwire/agent-connector/file-drop';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { fileDropSuite } from './file-drop-suite.js';

const bundled = fileDropSuite({
  create: (dir, agentId) => new FileDropAgentConnector({ dir, agents: [agentId] }),
  createWithoutAgents: (dir) => new FileDropAgentConnector({ dir }),
});

describe('fileDropSuite against FileDropAgentConnector', () => {
  registerSuite(bundled, { describe, it, afterAll });
});

describe('fileDropSuite', () => {
  it('skips the folder listing when only a configured connector is given, saying what to provide', async () => {
    const report = await runSuite(
      fileDropSuite({ create: (dir, agentId) => new FileDropAgentConnector({ dir, agents: [agentId] }) }),
    );
    expect(report.ok).toBe(true);
    expect(report.results.find((r) => r.status !== 'passed')).toMatchObject({
      id: 'agent-connector.file-drop.agents.from-folders',
      status: 'skipped',
      reason: expect.stringContaining('createWithoutAgents(dir)'),
    });
  });

  it('fails a connector that rewrites a repeated delivery, lets a long name through and calls a missing folder healthy', async () => {
    class Careless extends FileDropAgentConnector {
      override async deliver(...args: Parameters<FileDropAgentConnector['deliver']>) {
        const [agent_id, payload] = args;
        // Trims a dispatch id that is too long instead of refusing it, and never warns on a repeat.
        const id = payload.meta.dispatch_id;
        const fitted = new TextEncoder().encode(id).length > 250 ? id.slice(0, 100) : id;
        const receipt = await super.deliver(agent_id, {
          ...payload,
          meta: { ...payload.meta, dispatch_id: fitted },
        });
        const { warnings: _dropped, ...rest } = receipt;
        return rest;
      }
      override async health_check() {
        return true;
      }
    }
    const report = await runSuite(
      fileDropSuite({ create: (dir, agentId) => new Careless({ dir, agents: [agentId] }) }),
    );
    expect(report.results.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([
      'agent-connector.file-drop.deliver.retry-same',
      'agent-connector.file-drop.deliver.unsafe-dispatch-ids',
      'agent-connector.file-drop.health',
    ]);
  });

  it('fails a connector that makes the drop folder again, or writes wakes without their context', async () => {
    class Eager extends FileDropAgentConnector {
      override async deliver(...args: Parameters<FileDropAgentConnector['deliver']>) {
        const { mkdir } = await import('node:fs/promises');
        await mkdir(this.dir, { recursive: true });
        return super.deliver(...args);
      }
      override async wake(agent_id: string) {
        return super.wake(agent_id);
      }
    }
    const report = await runSuite(
      fileDropSuite({ create: (dir, agentId) => new Eager({ dir, agents: [agentId] }) }),
    );
    expect(report.results.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([
      'agent-connector.file-drop.deliver.missing-folder',
      'agent-connector.file-drop.wake.file',
      'agent-connector.file-drop.wake.session-and-schedule',
    ]);
  });

  it('fails a connector that blames the caller for file-system faults, lists folders unsorted and takes BigInts', async () => {
    class Sloppy extends FileDropAgentConnector {
      override async deliver(...args: Parameters<FileDropAgentConnector['deliver']>) {
        const [agent_id, payload] = args;
        try {
          // Writes BigInts as strings instead of refusing the payload.
          const plain = JSON.parse(
            JSON.stringify(payload, (_, v) => (typeof v === 'bigint' ? String(v) : v)),
          );
          return await super.deliver(agent_id, plain);
        } catch (error) {
          throw Object.assign(error as object, { cause_kind: 'client_validation' });
        }
      }
      override async list_agents() {
        return [...(await super.list_agents())].reverse();
      }
    }
    const report = await runSuite(
      fileDropSuite({
        create: (dir, agentId) => new Sloppy({ dir, agents: [agentId] }),
        createWithoutAgents: (dir) => new Sloppy({ dir }),
      }),
    );
    expect(report.results.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([
      'agent-connector.file-drop.deliver.fault-is-network',
      'agent-connector.file-drop.deliver.unserialisable',
      'agent-connector.file-drop.agents.from-folders',
    ]);
  });
});
