// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// Equivalents of relay-codec-events (relay.codec × packages/relay/src/{descriptor,message-event}.ts).
// Format: mutation/equivalents.mjs (`Equivalent`); this file is self-contained.
import { DIAGNOSTIC_MUTATORS } from './shared.mjs';

const PAIRS = ['relay-codec-events'];
const DESCRIPTOR = 'packages/relay/src/descriptor.ts';
const MESSAGE_EVENT = 'packages/relay/src/message-event.ts';

const DESCRIPTOR_WORDS =
  "what a descriptor refusal says besides its code (its message, its path, its cause; the text and path of the issue a frame's descriptor becomes): the suite checks the code (invalid_frame for a frame), which these mutants leave as it is";
const VALUE_PATH =
  'a descriptor given as a decoded value is, through the suite, always the `descriptor` of a frame line the decoder has just parsed: plain JSON, which copies without a refusal and without throwing (no getter, no cycle, no non-JSON value)';
const OWNED_WIRE =
  "eventFromOwnedWire and keep, the SDK's copy-free reader for an event its own frame decoder has just parsed (the WebSocket transport uses it): the same reading rules as eventFromWire, which the suite checks; the suite's interface has no member for it";

const EVENT_WORDS =
  'what a refusal of an inbound event says besides its code (its message, the path it names): the suite checks the code, which these mutants leave as it is';
const EVENT_SHAPE =
  'the suite hands eventToWire only events its reader gave (the `expected` of inbound-events.json, each checked against eventFromWire): every such event has a string text and message_type, an object source, and is itself a JSON object';
const MEDIA_ENTRIES =
  'writes media[] entries the reader gets nothing from (a falsy mime, or a url that is not a non-empty string; a media_urls entry then reads as "" with or without them), so the event written reads back the same';

/** @type {import('../equivalents.mjs').Equivalent[]} */
export default [
  // descriptor.ts
  ...["'descriptor_invalid_json',", "'descriptor_not_json',", "'descriptor_invalid_field',"].map((code) => ({
    pairs: PAIRS,
    file: DESCRIPTOR,
    code,
    exact: true,
    span: { from: 'export const DESCRIPTOR_ERROR_CODES', until: '/**' },
    mutators: ['StringLiteral'],
    reason:
      "the codes the frame decoder's descriptor schema turns into an issue: from a frame's decoded descriptor parseDescriptorValue throws only descriptor_not_object, descriptor_missing_fields and descriptor_max_message_length_overflow (invalid_json is the text path's, not_json needs a value JSON cannot carry, invalid_field is createDescriptor's), so whether these three are in the set changes nothing the suite can reach",
  })),
  {
    pairs: PAIRS,
    file: DESCRIPTOR,
    code: "return typeof input === 'string' ? descriptorFromJson(readJsonText(input)) : parseDescriptorValue(input);",
    mutators: ['ConditionalExpression'],
    reason:
      "the suite's parseDescriptor hands JSON text, always a string (the `input` of descriptors.json); the decoded-value branch is parseDescriptorValue's, which the frame decoder calls directly",
  },
  ...[
    '`descriptor must be a JSON object, got ${describeType(data)}`,',
    "`descriptor is missing required field(s): ${missing.join(', ')}`,",
    "path: missing[0] ?? '',",
    "throw new RelayError('descriptor_invalid_json', 'descriptor text is not valid JSON', { cause: error });",
    "throw new RelayError('descriptor_max_message_length_overflow', 'max_message_length is infinite', {",
    "path: 'max_message_length',",
    'ctx.issues.push({',
    "code: 'custom',",
    "path: error.path === '' ? [] : [error.path],",
    'params: { code: error.code },',
  ].map((code) => ({
    pairs: PAIRS,
    file: DESCRIPTOR,
    code,
    mutators: DIAGNOSTIC_MUTATORS,
    reason: DESCRIPTOR_WORDS,
  })),
  {
    pairs: PAIRS,
    file: DESCRIPTOR,
    code: '{',
    exact: true,
    span: { from: 'const missing = REQUIRED_DESCRIPTOR_FIELDS', until: 'const result' },
    mutators: ['ObjectLiteral'],
    reason:
      "drops the list of missing fields from the refusal (its code stays descriptor_missing_fields): the suite compares that list only when an implementation reports one (missingDescriptorFields may answer undefined, the contract's gateway raises a TypeError naming them in words), so a refusal without it passes as the gateway's does",
  },
  {
    pairs: PAIRS,
    file: DESCRIPTOR,
    code: 'details: { missing },',
    mutators: ['ObjectLiteral'],
    reason:
      "drops the list of missing fields from the refusal (its code stays descriptor_missing_fields): the suite compares that list only when an implementation reports one (missingDescriptorFields may answer undefined, the contract's gateway raises a TypeError naming them in words), so a refusal without it passes as the gateway's does",
  },
  ...[
    '} catch (error) {',
    "'descriptor_not_json',",
    "`descriptor holds a value JSON cannot carry${error instanceof Error ? `: ${error.message}` : ''}`,",
    '{ cause: error },',
    'if (copy.ok) return copy.value;',
    '`descriptor holds a value JSON cannot carry: ${copy.refusal.message}`,',
    '{',
  ].map((code) => ({
    pairs: PAIRS,
    file: DESCRIPTOR,
    code,
    exact: true,
    span: { from: 'function toDescriptorJson(', until: 'function normaliseMaxMessageLength(' },
    mutators: ['BlockStatement', 'StringLiteral', 'ObjectLiteral', 'ConditionalExpression'],
    reason: VALUE_PATH,
  })),
  {
    pairs: PAIRS,
    file: DESCRIPTOR,
    code: "return outcome.kind === 'int' && outcome.sign > 0 ? value : DEFAULT_MAX_MESSAGE_LENGTH;",
    column: 10,
    mutators: ['ConditionalExpression'],
    reason:
      "`outcome.kind === 'int'` made true: the other outcomes of pythonIntOf (invalid; overflow, thrown before) carry no sign, so `outcome.sign > 0` is false for them and the value still becomes 4096",
  },
  {
    pairs: PAIRS,
    file: DESCRIPTOR,
    code: 'if (!(error instanceof RelayError && DESCRIPTOR_ERROR_CODES.has(error.code))) throw error;',
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason:
      'decides whether an error other than a descriptor RelayError escapes the frame schema: from a frame line parseDescriptorValue throws only descriptor RelayErrors (the value is JSON the decoder has just parsed), so the rethrow is never taken and removing or widening it changes nothing',
  },
  {
    pairs: PAIRS,
    file: DESCRIPTOR,
    code: 'if (NEWER_FIELDS.has(name) && options.newerFields !== true) continue;',
    mutators: ['ConditionalExpression', 'BooleanLiteral'],
    reason:
      "the SDK's own newerFields option of descriptorToJson (to_json() with the two fields only newer gateways declare): the contract's to_json() is the baseline gateway's fourteen fields, which the suite asks for, never passing the option",
  },
  {
    pairs: PAIRS,
    file: DESCRIPTOR,
    code: 'value === undefined && Object.hasOwn(OPTIONAL_DESCRIPTOR_DEFAULTS, name)',
    mutators: ['ConditionalExpression'],
    reason:
      "fills a default into a descriptor that lacks an optional field: the suite's to_json() cases hand the parsed descriptor, which from_json always gives every field (descriptors.json `expected`)",
  },

  // message-event.ts
  ...[
    { from: 'export function eventFromOwnedWire(', until: '/** How a reader takes' },
    { from: 'function keep(', until: '/**' },
  ].map((span) => ({ pairs: PAIRS, file: MESSAGE_EVENT, span, reason: OWNED_WIRE })),
  // message-event.ts: eventFromWire (the gateway's reader) and eventToWire (its writer, checked by reading back)
  ...[
    {
      code: "return readEvent(asObject(readJson(wire), ''), fresh, sessionSourceFromWire);",
      mutators: ['StringLiteral'],
    },
    {
      code: "const replyTo = isPythonTruthy(replyValue) ? asObject(replyValue, 'reply_to') : {};",
      mutators: ['StringLiteral'],
    },
    {
      code: "`text must be a string on Slack, got ${text === null ? 'null' : typeof text}`,",
      mutators: DIAGNOSTIC_MUTATORS,
    },
    { code: "{ path: 'text' },", mutators: ['StringLiteral', 'ObjectLiteral'] },
    ...[54, 57, 65, 94].map((column) => ({
      code: "throw new RelayError('message_event_not_object', `${path || 'event'} must be an object`, { path });",
      column,
      mutators: DIAGNOSTIC_MUTATORS,
    })),
  ].map((entry) => ({ pairs: PAIRS, file: MESSAGE_EVENT, ...entry, reason: EVENT_WORDS })),
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "if (sub !== '' && Object.hasOwn(subcommands, sub)) {",
    column: 15,
    mutators: ['StringLiteral'],
    reason:
      'compares the sub-command with another string than "": an empty sub-command (a bare /hermes) still fails the next test, since no sub-command map has a "" key, and becomes /help either way',
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "let messageType = readMessageType(Object.hasOwn(raw, 'message_type') ? raw['message_type'] : 'text');",
    column: 96,
    mutators: ['StringLiteral'],
    reason:
      'the default of an absent message_type made "": readMessageType turns "" (not a known type) into "text", the default itself',
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: 'if (!Array.isArray(urls) || urls.length === 0) return [];',
    column: 31,
    mutators: ['ConditionalExpression'],
    reason:
      'an empty media_urls list mapped instead of answered at once: mapping no URLs gives the same empty list',
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: 'for (const item of Array.isArray(media) ? (media as readonly JsonValue[]) : []) {',
    mutators: ['ArrayDeclaration'],
    reason:
      'a media value that is not a list read as one string item instead of none: an item that is not an object is skipped, so no mime is found either way',
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "typeof url === 'string' ? (mimeByUrl.get(url) ?? '') : '',",
    column: 5,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'looks a media_urls entry that is not a string up in the map instead of answering "": the map holds only string URLs (media[] entries with another url are skipped), so the lookup finds nothing and gives "" too',
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "Object.hasOwn(item, 'source') && isPythonTruthy(item['source'] as JsonValue) ? item['source'] : {};",
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    replacement: '',
    reason:
      "takes a context item's absent or falsy source as it is instead of {}: neither is an object, so no author is read from it and the line is the bare text either way",
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: 'if (isJsonObject<JsonObject>(src as JsonValue)) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      "reads user_name and user_id from a context source that is not an object (a string, number, boolean or list): it has no such own key, so the author stays '' as when the read is skipped",
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: 'if (isJsonValue(wire)) return wire;',
    mutators: ['ConditionalExpression'],
    reason:
      "copies the event first, or does not: the suite's event is plain JSON data (a fresh copy of fixture JSON for every call), whose copy is equal to it, and the reader keeps copies of what it keeps",
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "return value !== null && typeof value === 'object' ? toJsonValue(value, notJson) : value;",
    reason:
      'whether a value the reader keeps is copied: a copy equals the original, and sharing it is seen only by a caller that changes the wire object after reading, which the suite never does (it hands a fresh copy to every call)',
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    span: { from: 'function notJson(', until: '/** The value itself' },
    reason:
      "the refusal of an event holding a value plain JSON cannot carry (a function, a cycle, undefined): the suite's events are fixture JSON, so it is never made",
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "text: Object.hasOwn(e, 'text') ? get('text') : '',",
    column: 52,
    mutators: ['StringLiteral'],
    reason: EVENT_SHAPE,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "message_type: get('message_type') ?? 'text',",
    column: 42,
    mutators: ['StringLiteral'],
    reason: EVENT_SHAPE,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "typeof context === 'string' && context.startsWith(CHANNEL_CONTEXT_HEADER)",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: `${EVENT_SHAPE}: its channel_context, when truthy, is the reader's rendering, a string that starts with the header`,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "typeof context === 'string' && context.startsWith(CHANNEL_CONTEXT_HEADER)",
    mutators: ['LogicalOperator'],
    reason: `${EVENT_SHAPE}: its channel_context, when truthy, is the reader's rendering, a string that starts with the header`,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "if (source === null || typeof source !== 'object' || Array.isArray(source)) {",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: `${EVENT_SHAPE}: its source is always an object`,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "if (source === null || typeof source !== 'object' || Array.isArray(source)) {",
    mutators: ['LogicalOperator', 'BlockStatement'],
    reason: `${EVENT_SHAPE}: its source is always an object`,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "throw new RelayError('message_event_not_object', 'event.source must be an object', { path: 'source' });",
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: `${EVENT_SHAPE}: its source is always an object`,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: 'if (!Array.isArray(urls) || !Array.isArray(types)) return [];',
    mutators: ['ArrayDeclaration'],
    reason:
      'writes one junk media entry (a string) when media_urls or media_types is not a list: the reader skips a media item that is not an object, so the event reads back the same',
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "if (typeof url === 'string' && url !== '' && mime !== undefined && isPythonTruthy(mime)) {",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: MEDIA_ENTRIES,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "if (typeof url === 'string' && url !== '' && mime !== undefined && isPythonTruthy(mime)) {",
    mutators: ['LogicalOperator'],
    reason: MEDIA_ENTRIES,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "if (typeof url === 'string' && url !== '' && mime !== undefined && isPythonTruthy(mime)) {",
    column: 44,
    mutators: ['StringLiteral'],
    reason: MEDIA_ENTRIES,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    span: { from: 'function readEventObject(' },
    mutators: ['LogicalOperator', 'BlockStatement', 'StringLiteral', 'ObjectLiteral', 'ArrowFunction'],
    reason: `${EVENT_SHAPE}: it is always a JSON object`,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    span: { from: 'function readEventObject(' },
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: `${EVENT_SHAPE}: it is always a JSON object`,
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "if (sub !== '' && Object.hasOwn(subcommands, sub)) {",
    span: { from: 'export function rewriteSlackParentCommand(', until: 'function splitFirstWord(' },
    column: 7,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      "skips the empty-word test: an empty sub-command (a bare `/hermes`) is then looked up in the table, but the suite's rewriteSlackParentCommand and eventFromWire use the gateway's table (SLACK_SUBCOMMANDS, a null-prototype object of the gateway's command names), which has no \"\" key, so the lookup fails and the bare command still becomes /help",
  },
  {
    pairs: PAIRS,
    file: MESSAGE_EVENT,
    code: "if (typeof url !== 'string' || url === '') continue;",
    span: { from: 'function mediaTypes(', until: 'function renderChannelContext(' },
    column: 9,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'drops the type test of a media[] entry\'s url: an entry whose url is not a string is then put in the map under that value, but the map is looked up only with media_urls entries that are strings (any other entry reads as "" without a lookup), and a Map never finds a string under a number, boolean, object or null key, so no media type changes. (The whole condition made `false`, which has the same column and replacement, lets an empty url match and is killed by inbound-events.media-types-empty-url-matches-nothing; the entry sets aside survivors only.)',
  },
];
