import type { AugmentPayload, DeliveryMeta, TemplatePayload } from '@agentwire/agent-connector';

let counter = 0;

/** A dispatch id unique within this process, safe as a file name. */
export function conformanceDispatchId(label: string): string {
  counter += 1;
  return `conformance-${label}-${Date.now().toString(36)}-${counter}`;
}

/** Minimal meta, as a cron-fired skill's runtime writes it. */
export function minimalMeta(label: string): DeliveryMeta {
  return {
    dispatch_id: conformanceDispatchId(label),
    sent_at: Date.now(),
    origin: { skill_name: 'conformance-suite', trigger_kind: 'cron' },
  };
}

/**
 * Meta with every optional field, non-ASCII text and keys a later minor may add; a connector must pass
 * all of it through untouched.
 */
export function richMeta(label: string): DeliveryMeta {
  const meta = {
    dispatch_id: conformanceDispatchId(label),
    sent_at: Date.now(),
    origin: {
      skill_name: 'daily-digest',
      entry_skill_name: 'morning-routine',
      trigger_kind: 'agent',
      caller_agent_id: 'ops@example.org',
      x_future_origin_field: 'kept',
    },
    event_type: 'digest.ready — 日報',
    correlation_id: 'corr-🙂-1',
    x_adopter_routing: { lane: 'priority', tags: ['a', 'b'], weight: 0.5, urgent: false },
  };
  return meta as DeliveryMeta;
}

/** An augment payload with `meta`. */
export function augmentPayload(meta: DeliveryMeta): AugmentPayload {
  return { kind: 'augment', content: 'Build #42 failed on main — see logs 🔧', meta };
}

/** A template payload with `meta`. */
export function templatePayload(meta: DeliveryMeta): TemplatePayload {
  return { kind: 'template', prompt: 'Summarise the open incidents:\n1. {{incident}}\n— ends —', meta };
}
