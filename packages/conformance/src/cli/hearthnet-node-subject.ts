import { startAgentwireNode } from '../suites/hearthnet/agentwire-node.js';
import { hearthnetNodeSuite } from '../suites/hearthnet/node-suite.js';
import type { LiveSubject, StartedSubject } from './live-subject.js';

/**
 * agentwire's HearthNet node on 127.0.0.1 (bus, pub-sub long poll, `GET /manifest`, gossip sync over
 * one in-memory log), checked by the black-box `hearthnet.node` suite with every capability declared.
 */
export const hearthnetNodeSubject: LiveSubject = {
  subject: 'agentwire HearthNet node, in-process',
  start: async (): Promise<StartedSubject> => {
    const node = await startAgentwireNode();
    return {
      suites: [hearthnetNodeSuite(node.suiteOptions) as unknown as StartedSubject['suites'][number]],
      stop: () => node.close(),
    };
  },
};
