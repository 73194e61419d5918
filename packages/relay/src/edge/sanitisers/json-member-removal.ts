import { RelayError } from '../../errors.js';

/** One member of the top-level object: the span from its key's opening quote to its value's end. */
interface MemberSpan {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

/** The outcome of {@link removeTopLevelMembers}. */
export interface MemberRemoval {
  /** The text without the removed members; the input itself when nothing was removed. */
  readonly text: string;
  /** How many members were removed (duplicate keys each count). */
  readonly removed: number;
}

/**
 * Removes every member of a JSON object text's top level whose key (after unescaping, so
 * `"tok\u0065n"` counts as `token`) is in `names`, and keeps every other character as it was: key
 * order, whitespace, number spellings and escapes of the rest are untouched. A removed member takes
 * the comma that separated it from its neighbour with it, so the result is still one JSON object.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: `text` is not one JSON object (`JSON.parse` is the
 *   judge).
 */
export function removeTopLevelMembers(text: string, names: ReadonlySet<string>): MemberRemoval {
  try {
    JSON.parse(text);
  } catch (error) {
    throw new RelayError('sanitiser_malformed_payload', 'the body is not JSON', {
      path: 'body',
      cause: error,
    });
  }
  const members = topLevelMembers(text);
  const kept = members.filter((member) => !names.has(member.key));
  if (kept.length === members.length) return { text, removed: 0 };

  const first = members[0]!;
  const last = members[members.length - 1]!;
  let out = text.slice(0, first.start);
  kept.forEach((member, index) => {
    if (index > 0) {
      const position = members.indexOf(member);
      out += text.slice(members[position - 1]!.end, member.start);
    }
    out += text.slice(member.start, member.end);
  });
  return { text: out + text.slice(last.end), removed: members.length - kept.length };
}

/** The members of the top-level object of `text`, which `JSON.parse` has accepted. */
function topLevelMembers(text: string): MemberSpan[] {
  let at = skipWhitespace(text, 0);
  if (text[at] !== '{')
    throw new RelayError('sanitiser_malformed_payload', 'the body is not a JSON object', { path: 'body' });
  at = skipWhitespace(text, at + 1);
  const members: MemberSpan[] = [];
  if (text[at] === '}') return members;
  for (;;) {
    const start = at;
    const keyEnd = skipString(text, at);
    const key = JSON.parse(text.slice(start, keyEnd)) as string;
    at = skipWhitespace(text, keyEnd) + 1; // the ':'
    const end = skipValue(text, skipWhitespace(text, at));
    members.push({ key, start, end });
    at = skipWhitespace(text, end);
    if (text[at] === '}') return members;
    at = skipWhitespace(text, at + 1); // past the ','
  }
}

function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  return at;
}

/** The index after the string literal opening at `from`. */
function skipString(text: string, from: number): number {
  let at = from + 1;
  while (at < text.length) {
    const ch = text[at]!;
    if (ch === '\\') at += 2;
    else if (ch === '"') return at + 1;
    else at++;
  }
  throw new RelayError('sanitiser_malformed_payload', 'unterminated string in the body', { path: 'body' });
}

/** The index after the value starting at `from`. */
function skipValue(text: string, from: number): number {
  const ch = text[from];
  if (ch === '"') return skipString(text, from);
  if (ch === '{' || ch === '[') {
    let depth = 0;
    let at = from;
    while (at < text.length) {
      const c = text[at]!;
      if (c === '"') {
        at = skipString(text, at);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) return at + 1;
      at++;
    }
    throw new RelayError('sanitiser_malformed_payload', 'unterminated value in the body', { path: 'body' });
  }
  let at = from;
  while (at < text.length && !',}] \t\n\r'.includes(text[at]!)) at++;
  return at;
}
