import type { ActivityTracker } from './activity.js';
import { InMemoryPipe, type PipeEnd, type WireChunk } from './in-memory-pipe.js';

/** Which way a wire message travelled. */
export type WireDirection = 'to_connector' | 'to_gateway';

/** One message written on a linked pair, as written (a whole frame line, or raw data). */
export interface WireRecord {
  readonly direction: WireDirection;
  readonly data: WireChunk;
}

/** What both ends of a linked pair share. */
export interface LinkedContext {
  readonly tracker: ActivityTracker;
  /** Every message written, both directions, in order. */
  readonly wire: WireRecord[];
  /** Splits one encoded frame line into the messages that carry it. */
  readonly chunk: (line: string) => readonly WireChunk[];
}

/** One open in-memory socket between the two ends: a pipe each way. */
export class LinkedConnection {
  readonly toConnector: InMemoryPipe;
  readonly toGateway: InMemoryPipe;

  constructor(
    tracker: ActivityTracker,
    gatewayEnd: (connection: LinkedConnection) => PipeEnd,
    connectorEnd: (connection: LinkedConnection) => PipeEnd,
  ) {
    this.toConnector = new InMemoryPipe(tracker, connectorEnd(this));
    this.toGateway = new InMemoryPipe(tracker, gatewayEnd(this));
  }
}
