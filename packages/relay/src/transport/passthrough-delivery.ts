import type { PassthroughForward } from '../frames/index.js';
import { decodePassthroughBody, type PassthroughHeader } from '../passthrough/index.js';

/**
 * A `passthrough_forward` as the gateway hands it to its passthrough handler (Python's
 * `PassthroughForward`): the body decoded to the exact bytes the connector forwarded, headers as
 * `[name, value]` pairs in arrival order, `profile` `null` when absent.
 */
export interface PassthroughDelivery {
  readonly platform: string;
  readonly botId: string;
  readonly method: string;
  readonly path: string;
  readonly headers: readonly PassthroughHeader[];
  readonly body: Uint8Array;
  readonly profile: string | null;
}

/**
 * The delivery a decoded `forward` object becomes, with the gateway's body rule: anything but padded
 * standard base64 decodes to zero bytes, silently.
 *
 * @example
 * passthroughDeliveryFromForward(decodedFrame.forward).body; // the webhook's raw bytes
 */
export function passthroughDeliveryFromForward(forward: PassthroughForward): PassthroughDelivery {
  return {
    platform: forward.platform,
    botId: forward.botId,
    method: forward.method,
    path: forward.path,
    headers: forward.headers.map(([name, value]): PassthroughHeader => [name, value]),
    body: decodePassthroughBody(forward.bodyB64),
    profile: forward.profile ?? null,
  };
}
