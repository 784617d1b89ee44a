// A YAML parse error as the end of a sentence about the field that holds the text. The parser's
// own message ends in a code excerpt ("at line 2, column 13:" and the line under it), which an
// answer cut at its first line leaves dangling: the place and the reason are said once, in words.
import type { YAMLError } from 'yaml';

/** "is not valid YAML at line 2, column 13: flow sequence … must end with a ]". */
export function yamlFault(error: YAMLError): string {
  const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '').replace(/\.$/, '');
  const at = error.linePos?.[0];
  const where = at ? ` at line ${at.line}, column ${at.col}` : '';
  return `is not valid YAML${where}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
}
