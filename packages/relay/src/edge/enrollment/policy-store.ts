/**
 * A gateway's relevance policy for one fronted platform (`POST /relay/policy`): which messages are
 * worth delivering, projected from the gateway's `require_mention`, `free_response_channels` and
 * `{PLATFORM}_ALLOW_BOTS`.
 */
export interface RelevancePolicy {
  readonly platform: string;
  /** A non-owner message must mention the bot or reply to it to be relevant. */
  readonly requireAddress: boolean;
  /** Scope (channel) ids where `requireAddress` is waived. */
  readonly freeResponseScopes: readonly string[];
  /** Admit bot-authored messages. */
  readonly allowOtherBots: boolean;
}

/** A policy as stored: attached to the authenticated gateway and its tenant. */
export interface GatewayRelevancePolicy extends RelevancePolicy {
  readonly tenant: string;
  readonly gatewayId: string;
}

/** Stores relevance policies, one per `(gatewayId, platform)`; `put` replaces (the gateway re-declares every boot). */
export interface PolicyStore {
  put(policy: GatewayRelevancePolicy): Promise<void>;
  get(gatewayId: string, platform: string): Promise<GatewayRelevancePolicy | null>;
}
