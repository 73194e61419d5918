import type { WakeOpts } from '@agentwire/agent-connector';
import { assertEqual } from '../../assert.js';
import type { ConformanceCase } from '../../suite.js';
import type { AgentConnectorContext } from './connector-under-test.js';
import { assertWakeReceipt, mustResolve } from './strict-values.js';
import { AGENT_CONNECTOR_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<AgentConnectorContext>;

const since = AGENT_CONNECTOR_SUITE_VERSION;
const SESSION = 'conformance-session';

async function wakeAndCheck(ctx: AgentConnectorContext, agentId: string, opts?: WakeOpts) {
  const receipt = await mustResolve(`wake('${agentId}'${opts === undefined ? '' : ', opts'})`, () =>
    opts === undefined ? ctx.connector.wake(agentId) : ctx.connector.wake(agentId, opts),
  );
  return assertWakeReceipt(receipt);
}

/**
 * `wake()`: never throws for a capability gap (a substrate that cannot interrupt degrades to `woken:
 * false`), accepts `agent@session`, and echoes the session when the connector declares sessions.
 */
export function wakeCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.wake.${rest}`;
  return [
    {
      id: id('with-context'),
      title: 'wake() with context resolves to a receipt with a boolean woken',
      section: 'AgentConnector v1.0 §wake',
      level: 'required',
      since,
      run: async (ctx) => {
        await wakeAndCheck(ctx, ctx.agentId, { context: 'Conformance check: please look at the queue.' });
      },
    },
    {
      id: id('without-context'),
      title: 'wake() without options resolves to a receipt with a boolean woken',
      section: 'AgentConnector v1.0 §wake',
      level: 'required',
      since,
      run: async (ctx) => {
        await wakeAndCheck(ctx, ctx.agentId);
      },
    },
    {
      id: id('session-address'),
      title: 'wake() accepts an agent@session address',
      section: 'AgentConnector v1.0 §addressing',
      level: 'required',
      since,
      run: async (ctx) => {
        await wakeAndCheck(ctx, `${ctx.agentId}@${SESSION}`, { context: 'Conformance check (session).' });
      },
    },
    {
      id: id('session-echo-address'),
      title: 'wake(agent@session) echoes the session on the receipt',
      section: 'AgentConnector v1.0 §WakeReceipt',
      level: 'required',
      requires: 'sessions',
      since,
      run: async (ctx) => {
        const receipt = await wakeAndCheck(ctx, `${ctx.agentId}@${SESSION}`, { context: 'Session echo.' });
        assertEqual(receipt.session_id, SESSION, 'session_id');
      },
    },
    {
      id: id('session-echo-opts'),
      title: 'wake() echoes opts.session_id, which wins over the address',
      section: 'AgentConnector v1.0 §WakeOpts',
      level: 'required',
      requires: 'sessions',
      since,
      run: async (ctx) => {
        const plain = await wakeAndCheck(ctx, ctx.agentId, { session_id: 'opts-session' });
        assertEqual(plain.session_id, 'opts-session', 'session_id of wake(agent, { session_id })');
        const both = await wakeAndCheck(ctx, `${ctx.agentId}@${SESSION}`, { session_id: 'opts-session' });
        assertEqual(both.session_id, 'opts-session', 'session_id of wake(agent@session, { session_id })');
      },
    },
  ];
}
