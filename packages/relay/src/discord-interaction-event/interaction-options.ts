import { type PythonJsonValue, pythonStrip } from '../python/index.js';
import { isPythonTruthy } from '../python/truthy.js';
import { equalsInteger, isPythonDict, pythonGet, strOf } from './python-values.js';

/**
 * The words the gateway appends to a slash command for its `data.options`, in order: a
 * `SUB_COMMAND` or `SUB_COMMAND_GROUP` (option `type` equal to 1 or 2, `true` included) gives its
 * stripped `name` when not blank, then its own `options`, recursively; any other option gives
 * `str(value).strip()` unless the value is `null` or blank (`false`, `0` and `[]` do give words).
 * Anything that is not a list, and entries that are not objects, give nothing.
 */
export function interactionOptionWords(options: PythonJsonValue): string[] {
  const words: string[] = [];
  if (!Array.isArray(options)) return words;
  for (const option of options as readonly PythonJsonValue[]) {
    if (!isPythonDict(option)) continue;
    const type = pythonGet(option, 'type');
    if (equalsInteger(type, 1) || equalsInteger(type, 2)) {
      const name = pythonGet(option, 'name');
      const subcommand = pythonStrip(isPythonTruthy(name) ? strOf(name) : '');
      if (subcommand !== '') words.push(subcommand);
      words.push(...interactionOptionWords(pythonGet(option, 'options')));
    } else {
      const value = pythonGet(option, 'value');
      const word = value === null ? '' : pythonStrip(strOf(value));
      if (word !== '') words.push(word);
    }
  }
  return words;
}
