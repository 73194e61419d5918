import { RelayError } from '../../errors.js';

const ENCRYPT_OPEN = /<Encrypt\s*>/y;
const ENCRYPT_CLOSE = /\s*<\/Encrypt\s*>/y;
const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/**
 * The text of the one `<Encrypt>` element of a WeCom callback body, written as CDATA or as plain
 * text, whitespace around it ignored. CDATA sections and comments elsewhere are skipped, so an
 * `<Encrypt>` quoted inside another element's CDATA is not taken. Throws `malformed_body`
 * when there is no such element, more than one, an unterminated one, or one that is empty.
 */
export function extractEncryptElement(xml: string): string {
  const found: string[] = [];
  let at = 0;
  for (;;) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) break;
    if (xml.startsWith(CDATA_OPEN, lt)) {
      at = endOf(xml, CDATA_CLOSE, lt + CDATA_OPEN.length);
    } else if (xml.startsWith('<!--', lt)) {
      at = endOf(xml, '-->', lt + 4);
    } else if (matchesAt(ENCRYPT_OPEN, xml, lt)) {
      const [value, next] = encryptContent(xml, ENCRYPT_OPEN.lastIndex);
      found.push(value);
      at = next;
    } else {
      at = lt + 1;
    }
  }
  if (found.length !== 1) {
    throw new RelayError('malformed_body', `the body has ${found.length} <Encrypt> elements, not one`, {
      path: 'body',
    });
  }
  if (found[0] === '')
    throw new RelayError('malformed_body', 'the <Encrypt> element is empty', { path: 'body' });
  return found[0]!;
}

/** The content of an `<Encrypt>` element starting at `start`, and the index after its end tag. */
function encryptContent(xml: string, start: number): [string, number] {
  let from = start;
  while (/\s/.test(xml.charAt(from))) from++;
  let value: string;
  let next: number;
  if (xml.startsWith(CDATA_OPEN, from)) {
    const close = endOf(xml, CDATA_CLOSE, from + CDATA_OPEN.length);
    value = xml.slice(from + CDATA_OPEN.length, close - CDATA_CLOSE.length);
    next = close;
  } else {
    next = xml.indexOf('<', from);
    if (next < 0)
      throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });
    value = xml.slice(from, next).trim();
  }
  if (!matchesAt(ENCRYPT_CLOSE, xml, next)) {
    throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });
  }
  return [value, ENCRYPT_CLOSE.lastIndex];
}

/** The index just past the first `terminator` at or after `from`; throws when there is none. */
function endOf(xml: string, terminator: string, from: number): number {
  const index = xml.indexOf(terminator, from);
  if (index < 0)
    throw new RelayError('malformed_body', `the body has an unterminated section (no ${terminator})`, {
      path: 'body',
    });
  return index + terminator.length;
}

/** Whether the sticky `pattern` matches at `index` (its `lastIndex` is then just past the match). */
function matchesAt(pattern: RegExp, xml: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(xml);
}
