// Reads the public test vectors kept beside this file (see vectors/README.md for their sources).
import { readFileSync } from 'node:fs';

export function readVectorJson<T = unknown>(relativePath: string): T {
  return JSON.parse(readFileSync(new URL(`./vectors/${relativePath}`, import.meta.url), 'utf8')) as T;
}
