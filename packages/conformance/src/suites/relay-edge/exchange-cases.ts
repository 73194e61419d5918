import { assertEqual, assertTrue, fail } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import type { FixtureCase } from '../../fixtures/fixture-file.js';
import { readObject, readPositiveInteger, readString } from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import { levelForTags } from '../relay/case-level.js';
import { RELAY_SUITE_VERSION } from '../relay/suite-version.js';
import { parseContentDisposition } from './content-disposition.js';
import type {
  EdgeConnectorUnderTest,
  EdgeHttpRequest,
  EdgeHttpResponse,
  EdgeWorld,
  RelayEdgeImplementation,
} from './edge-implementation.js';
import { base64ToBytes, bytesEqual } from './edge-implementation.js';

interface StepRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly bodyText?: string;
  readonly bodyB64?: string;
}

interface ExchangeStep {
  readonly request: StepRequest;
  readonly expected: Record<string, unknown>;
  readonly capture: Readonly<Record<string, string>>;
}

const SECTIONS: Readonly<Record<string, string>> = {
  enroll: 'relay-reference §13 (enroll)',
  provision: 'relay-reference §13 (self-provision)',
  policy: 'relay-reference §13 (relevance policy)',
  media: 'relay-reference §7.5',
};

const PLACEHOLDER = /\{\{([a-z_]+):([^{}]*)\}\}/g;
const encoder = new TextEncoder();

/** The conformance case of one `kind: exchange` fixture case. */
export function exchangeCase(
  entry: FixtureCase,
  location: string,
  world: EdgeWorld,
  suiteName: string,
): ConformanceCase<RelayEdgeImplementation> {
  const steps = readSteps(entry['steps'], `${location}.steps`);
  const area = entry.tags.find((tag) => tag in SECTIONS) ?? 'media';
  return {
    id: `${suiteName}.side-channels.${entry.id}`,
    title: `${steps.map((s) => `${s.request.method} ${s.request.path.replace(PLACEHOLDER, '{id}')}`).join(', then ')}: ${entry.id}`,
    section: SECTIONS[area] ?? 'relay-reference §13',
    level: levelForTags(entry.tags),
    since: RELAY_SUITE_VERSION,
    requires: 'side-channels',
    run: async (impl) => {
      const connector = await impl.connector?.(world);
      if (connector === undefined) fail('connector(world) must return a connector');
      try {
        const captures = new Map<string, string>();
        for (const [index, step] of steps.entries()) {
          const where = `step ${index + 1} (${step.request.method} ${step.request.path})`;
          const request = await materialise(step.request, connector, captures);
          const response = await connector.handle(request);
          checkResponse(response, step, where, impl.edgeErrorBodies === true, captures);
        }
      } finally {
        await connector.close?.();
      }
    },
  };
}

async function materialise(
  request: StepRequest,
  connector: EdgeConnectorUnderTest,
  captures: ReadonlyMap<string, string>,
): Promise<EdgeHttpRequest> {
  const fill = (text: string) => substitute(text, connector, captures);
  const headers: [string, string][] = [];
  for (const [name, value] of request.headers) headers.push([name, await fill(value)]);
  const path = await fill(request.path);
  if (request.bodyText !== undefined) {
    return { method: request.method, path, headers, body: encoder.encode(await fill(request.bodyText)) };
  }
  if (request.bodyB64 !== undefined) {
    return { method: request.method, path, headers, body: base64ToBytes(request.bodyB64) };
  }
  return { method: request.method, path, headers };
}

/** `text` with every `{{kind:argument}}` placeholder replaced. */
async function substitute(
  text: string,
  connector: EdgeConnectorUnderTest,
  captures: ReadonlyMap<string, string>,
): Promise<string> {
  let result = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const [whole, kind = '', argument = ''] = match;
    result += text.slice(last, match.index) + (await placeholderValue(kind, argument, connector, captures));
    last = match.index + whole.length;
  }
  return result + text.slice(last);
}

async function placeholderValue(
  kind: string,
  argument: string,
  connector: EdgeConnectorUnderTest,
  captures: ReadonlyMap<string, string>,
): Promise<string> {
  switch (kind) {
    case 'enrollment_token':
      return connector.enrollmentToken(argument);
    case 'channel_token': {
      const [gatewayId = '', issuedAt = '', ttl = ''] = argument.split(':');
      return await connector.channelToken(gatewayId, {
        issuedAt: Number(issuedAt),
        ttlSeconds: Number(ttl),
      });
    }
    case 'capture':
      return capturedValue(captures, argument);
    default:
      throw invalidFixtureError(`{{${kind}:${argument}}}`, 'unknown placeholder');
  }
}

function capturedValue(captures: ReadonlyMap<string, string>, name: string): string {
  const value = captures.get(name);
  if (value === undefined) fail(`no earlier step captured ${name}`);
  return value;
}

/** An expected JSON value with its `{{capture:…}}` placeholders replaced. */
function withCaptures(value: unknown, captures: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (whole, kind: string, name: string) =>
      kind === 'capture' ? capturedValue(captures, name) : whole,
    );
  }
  if (Array.isArray(value)) return value.map((item) => withCaptures(item, captures));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withCaptures(v, captures)]));
  }
  return value;
}

function checkResponse(
  response: EdgeHttpResponse,
  step: ExchangeStep,
  where: string,
  compareErrorCodes: boolean,
  captures: Map<string, string>,
): void {
  const { expected } = step;
  assertEqual(response.status, expected['status'], `${where}: status`);
  const needsJson = ['json', 'json_types', 'error'].some((key) => key in expected);
  const body = needsJson || Object.keys(step.capture).length > 0 ? jsonObject(response, where) : {};
  if ('json' in expected) {
    for (const [member, value] of Object.entries(readObject(expected['json'], 'expected.json'))) {
      assertEqual(body[member], withCaptures(value, captures), `${where}: body.${member}`);
    }
  }
  if ('json_types' in expected) {
    for (const [member, type] of Object.entries(readObject(expected['json_types'], 'expected.json_types'))) {
      assertEqual(jsonType(body[member]), type, `${where}: type of body.${member}`);
    }
  }
  if (compareErrorCodes && 'error' in expected) {
    assertEqual(body['error'], expected['error'], `${where}: body.error`);
  }
  if ('headers' in expected) {
    for (const [name, value] of Object.entries(readObject(expected['headers'], 'expected.headers'))) {
      assertEqual(response.headers[name], value, `${where}: header ${name}`);
    }
  }
  if ('body_b64' in expected) {
    const bytes = base64ToBytes(readString(expected['body_b64'], 'expected.body_b64'));
    assertTrue(
      bytesEqual(response.body, bytes),
      `${where}: the body must be the ${bytes.length} bytes uploaded, got ${response.body.length} other bytes`,
    );
  }
  if ('content_disposition' in expected) {
    const header = response.headers['content-disposition'];
    if (header === undefined) fail(`${where}: no Content-Disposition header`);
    const parsed = parseContentDisposition(header);
    assertEqual(
      parsed === undefined ? header : { type: parsed.type, filename: parsed.filename },
      expected['content_disposition'],
      `${where}: Content-Disposition ${JSON.stringify(header)}`,
    );
  }
  for (const [name, member] of Object.entries(step.capture)) {
    const value = body[member];
    if (typeof value !== 'string' && typeof value !== 'number') {
      fail(`${where}: body.${member} must be a string or number to be used later`);
    }
    captures.set(name, String(value));
  }
}

function jsonObject(response: EdgeHttpResponse, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(response.body));
  } catch {
    fail(`${where}: the body must be UTF-8 JSON, got ${response.body.length} bytes`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail(`${where}: the body must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

function jsonType(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function readSteps(value: unknown, location: string): ExchangeStep[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidFixtureError(location, 'expected a non-empty array of steps');
  }
  return value.map((raw: unknown, i) => {
    const at = `${location}[${i}]`;
    const step = readObject(raw, at);
    const request = readObject(step['request'], `${at}.request`);
    const headers = request['headers'];
    if (
      !Array.isArray(headers) ||
      !headers.every(
        (pair: unknown) =>
          Array.isArray(pair) && pair.length === 2 && pair.every((p) => typeof p === 'string'),
      )
    ) {
      throw invalidFixtureError(`${at}.request.headers`, 'expected [name, value] string pairs');
    }
    const expected = readObject(step['expected'], `${at}.expected`);
    readPositiveInteger(expected['status'], `${at}.expected.status`);
    const capture = step['capture'] === undefined ? {} : readObject(step['capture'], `${at}.capture`);
    for (const [name, member] of Object.entries(capture)) readString(member, `${at}.capture.${name}`);
    return {
      request: {
        method: readString(request['method'], `${at}.request.method`),
        path: readString(request['path'], `${at}.request.path`),
        headers: headers as [string, string][],
        ...(typeof request['body_text'] === 'string' && { bodyText: request['body_text'] }),
        ...(typeof request['body_b64'] === 'string' && { bodyB64: request['body_b64'] }),
      },
      expected,
      capture: capture as Record<string, string>,
    };
  });
}
