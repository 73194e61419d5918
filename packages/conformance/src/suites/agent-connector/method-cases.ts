import {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  parseAgentDescriptors,
  parseAgentResponse,
  parseAgentStatus,
} from '@agentwire/agent-connector';
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import type { ConformanceCase } from '../../suite.js';
import type { AgentConnectorContext } from './connector-under-test.js';
import { augmentPayload, minimalMeta } from './sample-payloads.js';
import { assertNoEmptyFields, mustResolve } from './strict-values.js';
import { AGENT_CONNECTOR_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<AgentConnectorContext>;

const since = AGENT_CONNECTOR_SUITE_VERSION;

/** Static capabilities, `list_agents`, `health_check`, `agent_status` and `request_response`. */
export function methodCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('static-capabilities.contract-version'),
      title: 'staticCapabilities() declares contract major version 1',
      section: 'AgentConnector v1.0 §staticCapabilities',
      level: 'required',
      requires: 'static-capabilities',
      since,
      run: (ctx) => {
        const declared = ctx.staticCapabilities?.contract_version.split('.')[0];
        assertEqual(declared, AGENT_CONNECTOR_CONTRACT_VERSION.split('.')[0], 'contract major version');
      },
    },
    {
      id: id('list-agents.descriptors'),
      title: 'list_agents() resolves to valid agent descriptors',
      section: 'AgentConnector v1.0 §list_agents',
      level: 'required',
      requires: 'list-agents',
      since,
      run: async (ctx) => {
        const listed: unknown = await mustResolve('list_agents()', () => ctx.connector.list_agents());
        try {
          parseAgentDescriptors(listed);
        } catch (error) {
          fail(`parseAgentDescriptors refused ${formatValue(listed)}`, error);
        }
        for (const [index, descriptor] of (listed as readonly unknown[]).entries()) {
          assertNoEmptyFields(descriptor, `AgentDescriptor[${index}]`);
        }
      },
    },
    {
      id: id('list-agents.unique-ids'),
      title: 'list_agents() lists each non-empty agent id once',
      section: 'AgentConnector v1.0 §list_agents',
      level: 'recommended',
      requires: 'list-agents',
      since,
      run: async (ctx) => {
        const ids = (await mustResolve('list_agents()', () => ctx.connector.list_agents())).map(
          (descriptor) => descriptor.agent_id,
        );
        assertTrue(!ids.includes(''), 'an agent id is empty');
        assertEqual(ids.length, new Set(ids).size, `agent ids are unique (${formatValue(ids)})`);
      },
    },
    {
      id: id('health-check.boolean'),
      title: 'health_check() resolves to a boolean',
      section: 'AgentConnector v1.0 §health_check',
      level: 'required',
      since,
      run: async (ctx) => {
        const healthy: unknown = await mustResolve('health_check()', () => ctx.connector.health_check());
        assertTrue(typeof healthy === 'boolean', `health_check() resolved to ${formatValue(healthy)}`);
      },
    },
    {
      id: id('agent-status.valid'),
      title: 'agent_status() resolves to one of the four statuses',
      section: 'AgentConnector v1.0 §agent_status',
      level: 'required',
      requires: 'agent-status',
      since,
      run: async (ctx) => {
        const status: unknown = await mustResolve('agent_status()', async () =>
          ctx.connector.agent_status?.(ctx.agentId),
        );
        try {
          parseAgentStatus(status);
        } catch (error) {
          fail(`agent_status() resolved to ${formatValue(status)}`, error);
        }
      },
    },
    {
      id: id('request-response.works-or-not-implemented'),
      title: 'request_response() answers or rejects with NotImplementedError, as the class declares',
      section: 'AgentConnector v1.0 §request_response',
      level: 'required',
      since,
      run: async (ctx) => {
        const declared = ctx.staticCapabilities?.features.request_response === true;
        const payload = augmentPayload({ ...minimalMeta('request'), correlation_id: 'conformance-corr' });
        let response: unknown;
        try {
          response = await ctx.connector.request_response(ctx.agentId, payload, { timeout_ms: 5000 });
        } catch (error) {
          const name = (error as { readonly name?: unknown } | null)?.name;
          if (name !== 'NotImplementedError') {
            fail(`request_response() rejected with ${formatValue(name)}, not NotImplementedError`, error);
          }
          assertTrue(!declared, 'request_response() is declared as a feature but is not implemented');
          return;
        }
        try {
          parseAgentResponse(response);
        } catch (error) {
          fail(`request_response() resolved to ${formatValue(response)}`, error);
        }
      },
    },
  ];
}
