import { invalidArgument } from '../errors.ts';

/** No request message needs more nesting than this (Pachyderm's deepest is well under 20). */
export const maxJsonDepth = 64;

/**
 * Rejects JSON text nested deeper than maxJsonDepth before it is parsed (deep nesting costs
 * stack in every recursive walk after the parse: a spec 200,000 levels deep overflowed it).
 * One linear scan; strings are skipped. Request bodies, and JSON carried inside a request as a
 * string (createPipelineRequestJson, projectDefaultsJson…), are checked alike (code 3).
 */
export function checkJsonDepth(text: string, where = 'the request body'): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > maxJsonDepth)
        throw invalidArgument(`${where} is nested deeper than ${maxJsonDepth} levels (the limit)`);
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
}
