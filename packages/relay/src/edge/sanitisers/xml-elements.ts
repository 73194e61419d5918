import { RelayError } from '../../errors.js';

/** One child element of an XML document's root, as a span of the document text. */
export interface XmlChildElement {
  readonly name: string;
  /** Index of its `<`. */
  readonly start: number;
  /** Index after its end tag (or after `/>`). */
  readonly end: number;
  /** Its text: the CDATA section or the entity-decoded text it holds; `undefined` when it holds elements. */
  readonly text: string | undefined;
}

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';
const NAME = /[A-Za-z_][\w.:-]*/y;
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * The child elements of the root of a small XML document such as a WeCom callback message (`<xml>`
 * holding `<ToUserName>`, `<MsgType>`, …): an XML declaration, comments and whitespace around
 * elements are skipped; CDATA sections are read as text and never searched for tags. This is no
 * general XML parser: DTDs and processing instructions inside the root are not supported.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: no root element, or an element that is not closed.
 */
export function xmlRootChildren(xml: string): XmlChildElement[] {
  let at = skipProlog(xml, 0);
  const root = openTag(xml, at);
  if (root === undefined || root.selfClosing) {
    throw new RelayError('sanitiser_malformed_payload', 'the message has no XML root element', {
      path: 'message',
    });
  }
  at = root.end;
  const children: XmlChildElement[] = [];
  for (;;) {
    at = skipMisc(xml, at);
    if (xml.startsWith('</', at)) return children;
    const tag = openTag(xml, at);
    if (tag === undefined)
      throw new RelayError('sanitiser_malformed_payload', 'the XML root is not closed', { path: 'message' });
    if (tag.selfClosing) {
      children.push({ name: tag.name, start: at, end: tag.end, text: '' });
      at = tag.end;
      continue;
    }
    const [contentEnd, end] = elementEnd(xml, tag.end);
    children.push({ name: tag.name, start: at, end, text: elementText(xml.slice(tag.end, contentEnd)) });
    at = end;
  }
}

/** Entity-decoded text of plain character data (the five predefined entities and numeric references). */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9A-Fa-f]+|#\d+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(Number.parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith('#')) return safeCodePoint(Number.parseInt(ref.slice(1), 10)) ?? whole;
    return ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(code: number): string | undefined {
  return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : undefined;
}

function elementText(content: string): string | undefined {
  const trimmed = content.trim();
  if (trimmed.startsWith(CDATA_OPEN) && trimmed.endsWith(CDATA_CLOSE)) {
    const inner = trimmed.slice(CDATA_OPEN.length, -CDATA_CLOSE.length);
    if (!inner.includes(CDATA_CLOSE)) return inner;
  }
  return content.includes('<') ? undefined : decodeXmlText(content);
}

interface OpenTag {
  readonly name: string;
  readonly end: number;
  readonly selfClosing: boolean;
}

/** The start tag at `at`, or undefined when there is none there. */
function openTag(xml: string, at: number): OpenTag | undefined {
  if (xml[at] !== '<') return undefined;
  NAME.lastIndex = at + 1;
  const match = NAME.exec(xml);
  if (match === null) return undefined;
  const close = tagClose(xml, NAME.lastIndex);
  return { name: match[0], end: close + 1, selfClosing: xml[close - 1] === '/' };
}

/** The index of the `>` closing a tag whose attributes start at `from`, quotes respected. */
function tagClose(xml: string, from: number): number {
  let quote: string | undefined;
  for (let at = from; at < xml.length; at++) {
    const ch = xml[at]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '>') return at;
  }
  throw new RelayError('sanitiser_malformed_payload', 'an XML tag is not closed', { path: 'message' });
}

/** For content starting at `from`: the index of its end tag and the index after it. */
function elementEnd(xml: string, from: number): [number, number] {
  let depth = 1;
  let at = from;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) break;
    if (xml.startsWith(CDATA_OPEN, lt)) at = endOf(xml, CDATA_CLOSE, lt);
    else if (xml.startsWith('<!--', lt)) at = endOf(xml, '-->', lt);
    else if (xml.startsWith('</', lt)) {
      const end = tagClose(xml, lt + 2) + 1;
      if (--depth === 0) return [lt, end];
      at = end;
    } else {
      const tag = openTag(xml, lt);
      if (tag === undefined) at = lt + 1;
      else {
        if (!tag.selfClosing) depth++;
        at = tag.end;
      }
    }
  }
  throw new RelayError('sanitiser_malformed_payload', 'an XML element is not closed', { path: 'message' });
}

/** Skips the XML declaration, comments and whitespace before the root. */
function skipProlog(xml: string, from: number): number {
  let at = skipMisc(xml, from);
  if (xml.startsWith('<?', at)) at = skipMisc(xml, endOf(xml, '?>', at));
  return at;
}

/** Skips whitespace, character data and comments between elements. */
function skipMisc(xml: string, from: number): number {
  let at = from;
  for (;;) {
    while (at < xml.length && xml[at] !== '<') at++;
    if (!xml.startsWith('<!--', at)) return at;
    at = endOf(xml, '-->', at);
  }
}

function endOf(xml: string, terminator: string, from: number): number {
  const found = xml.indexOf(terminator, from);
  if (found < 0)
    throw new RelayError('sanitiser_malformed_payload', `no ${terminator} in the message`, {
      path: 'message',
    });
  return found + terminator.length;
}
