import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { AgentConnectorError } from '../contract/errors.js';
import { HttpWebhookAgentConnector } from './http-webhook-agent-connector.js';
import { webhookOptionsFromEnv } from './options.js';

const AGENTS = '{"perry":{"url":"https://a.example/p"}}';

function failure(env: Record<string, string | undefined>): AgentConnectorError {
  try {
    webhookOptionsFromEnv(env);
  } catch (error) {
    expect(error).toMatchObject({ code: 'invalid_webhook_config' });
    return error as AgentConnectorError;
  }
  throw new Error('expected webhookOptionsFromEnv to throw');
}

describe('webhookOptionsFromEnv', () => {
  it('reads every variable', () => {
    expect(
      webhookOptionsFromEnv({
        HTTP_WEBHOOK_AGENTS: '{"b":{"url":"u1","wake_url":"w","status_url":"s"},"a":{"url":"u2"}}',
        HTTP_WEBHOOK_TIMEOUT_MS: '250',
        HTTP_WEBHOOK_AUTH: 'Bearer abc',
        HTTP_WEBHOOK_HMAC_SECRET: 's3cret',
      }),
    ).toEqual({
      agents: { b: { url: 'u1', wake_url: 'w', status_url: 's' }, a: { url: 'u2' } },
      timeout_ms: 250,
      authorization: 'Bearer abc',
      hmac_secret: 's3cret',
    });
  });

  it('defaults the timeout to 5000 and ignores empty auth and secret', () => {
    expect(
      webhookOptionsFromEnv({
        HTTP_WEBHOOK_AGENTS: AGENTS,
        HTTP_WEBHOOK_AUTH: '',
        HTTP_WEBHOOK_HMAC_SECRET: '',
      }),
    ).toEqual({ agents: { perry: { url: 'https://a.example/p' } }, timeout_ms: 5000 });
  });

  it.each([
    ['12abc', 12],
    ['1.9', 1],
    [' 7', 7],
  ])('parses HTTP_WEBHOOK_TIMEOUT_MS %j like parseInt → %d', (raw, expected) => {
    expect(
      webhookOptionsFromEnv({ HTTP_WEBHOOK_AGENTS: AGENTS, HTTP_WEBHOOK_TIMEOUT_MS: raw }).timeout_ms,
    ).toBe(expected);
  });

  it.each(['', 'abc', '0', '-5'])('rejects HTTP_WEBHOOK_TIMEOUT_MS %j', (raw) => {
    const error = failure({ HTTP_WEBHOOK_AGENTS: AGENTS, HTTP_WEBHOOK_TIMEOUT_MS: raw });
    expect(error.path).toBe('HTTP_WEBHOOK_TIMEOUT_MS');
    expect(error.message).toBe(`HTTP_WEBHOOK_TIMEOUT_MS must be a positive integer (got: "${raw}").`);
  });

  it.each([
    [undefined, 'HTTP_WEBHOOK_AGENTS env var is required (JSON map of agent_id → config).'],
    ['', 'HTTP_WEBHOOK_AGENTS env var is required (JSON map of agent_id → config).'],
    ['[]', 'HTTP_WEBHOOK_AGENTS must be a JSON object (map of agent_id → config).'],
    ['null', 'HTTP_WEBHOOK_AGENTS must be a JSON object (map of agent_id → config).'],
    ['"x"', 'HTTP_WEBHOOK_AGENTS must be a JSON object (map of agent_id → config).'],
    ['{"a":"u"}', 'HTTP_WEBHOOK_AGENTS["a"]: must be a config object (got string).'],
    ['{"a":null}', 'HTTP_WEBHOOK_AGENTS["a"]: must be a config object (got object).'],
    ['{"a":[]}', 'HTTP_WEBHOOK_AGENTS["a"]: must be a config object (got object).'],
    ['{"a":{}}', 'HTTP_WEBHOOK_AGENTS["a"]: missing required "url" string field.'],
    ['{"a":{"url":""}}', 'HTTP_WEBHOOK_AGENTS["a"]: missing required "url" string field.'],
    ['{"a":{"url":5}}', 'HTTP_WEBHOOK_AGENTS["a"]: missing required "url" string field.'],
    [
      '{"a":{"url":"u","wake_url":""}}',
      'HTTP_WEBHOOK_AGENTS["a"]: "wake_url" must be a non-empty string when present.',
    ],
    [
      '{"a":{"url":"u","status_url":1}}',
      'HTTP_WEBHOOK_AGENTS["a"]: "status_url" must be a non-empty string when present.',
    ],
  ])('rejects HTTP_WEBHOOK_AGENTS %j', (raw, message) => {
    const error = failure({ HTTP_WEBHOOK_AGENTS: raw });
    expect(error.path).toBe('HTTP_WEBHOOK_AGENTS');
    expect(error.code).toBe('invalid_webhook_config');
    expect(error.message).toBe(message);
  });

  it('reports invalid JSON with the parser message and keeps the cause', () => {
    const error = failure({ HTTP_WEBHOOK_AGENTS: '{not json' });
    expect(error.message).toMatch(/^HTTP_WEBHOOK_AGENTS must be valid JSON: \S/);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('never quotes the text it could not parse: a password next to the error stays out', () => {
    const error = failure({
      HTTP_WEBHOOK_AGENTS: '{"perry":{"url":"https://user:s3cret@ag.example/p","n":tx}}',
    });
    expect(error.message).toBe("HTTP_WEBHOOK_AGENTS must be valid JSON: Unexpected token 'x'");
    expect(inspect(error, { depth: 10 })).not.toContain('s3cret');
    expect(String((error.cause as Error).message)).not.toContain('ag.example');
  });
});

describe('HttpWebhookAgentConnector.fromEnv', () => {
  it('builds a connector and accepts extra options', async () => {
    const connector = HttpWebhookAgentConnector.fromEnv(
      { HTTP_WEBHOOK_AGENTS: '{"b":{"url":"u"},"a":{"url":"v"}}' },
      { now: () => 1 },
    );
    expect(await connector.list_agents()).toEqual([{ agent_id: 'b' }, { agent_id: 'a' }]);
  });

  it('rejects a timeout beyond what timers honour', () => {
    expect(() =>
      HttpWebhookAgentConnector.fromEnv({
        HTTP_WEBHOOK_AGENTS: AGENTS,
        HTTP_WEBHOOK_TIMEOUT_MS: '99999999999',
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_webhook_config' }));
  });
});
