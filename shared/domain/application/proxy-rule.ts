// A router's rule, read as the proxy reads it: matchers such as Host(`a.test`) joined with `&&`,
// `||`, `!` and parentheses, each value in backticks or double quotes (the proxy parses a rule as a
// Go expression: a bare word or a single-quoted one is not text there). One reader serves both the
// check a saved rule must pass (a rule the proxy cannot parse disables its router) and the hosts a
// rule confines its router to (proxy-reach.ts).

/** A rule as a tree: a matcher with its values, or `!`, `&&`, `||` over rules. */
export type RuleNode =
  | { readonly kind: 'matcher'; readonly name: string; readonly values: readonly string[] }
  | { readonly kind: 'not'; readonly operand: RuleNode }
  | { readonly kind: 'and' | 'or'; readonly left: RuleNode; readonly right: RuleNode };

type Token =
  | { readonly kind: 'operator'; readonly text: '&&' | '||' | '!' | '(' | ')' | ',' }
  | { readonly kind: 'value'; readonly text: string }
  | { readonly kind: 'word'; readonly text: string };

// A word is any run of other characters: the parser tells a matcher's name from a bare value.
const TOKEN = /\s*(?:(&&|\|\||[!(),])|`([^`]*)`|"((?:[^"\\\n]|\\.)*)"|([^\s()!,&|`"']+))/y;

/** The rule's tokens, or why it has none: a quote left open, or a character a rule cannot hold. */
function tokensOf(rule: string): Token[] | string {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (!/^\s*$/.test(rule.slice(TOKEN.lastIndex))) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(rule);
    if (!match) {
      const rest = rule.slice(at).trimStart();
      if (rest.startsWith('`') || rest.startsWith('"')) return `a value opened with ${rest[0]} is not closed`;
      if (rest.startsWith("'")) return 'values go in backticks or double quotes, not single quotes';
      return `it cannot hold "${rest.slice(0, 12)}" there`;
    }
    const [, operator, backticked, quoted, word] = match;
    if (operator) tokens.push({ kind: 'operator', text: operator as '&&' });
    else if (word !== undefined) tokens.push({ kind: 'word', text: word });
    else tokens.push({ kind: 'value', text: backticked ?? quoted ?? '' });
  }
  return tokens;
}

class RuleFault extends Error {}

/** The rule as a tree, or the sentence saying why the proxy could not parse it. */
export function parseRule(rule: string): { readonly node: RuleNode } | { readonly fault: string } {
  const tokens = tokensOf(rule);
  if (typeof tokens === 'string') return { fault: tokens };
  let at = 0;
  const fail = (why: string): never => { throw new RuleFault(why); };
  const peek = (text: string) => tokens[at]?.kind === 'operator' && tokens[at]?.text === text;
  const expect = (text: string, why: string) => { if (!peek(text)) fail(why); at++; };
  const either = (): RuleNode => {
    let node = both();
    while (peek('||')) { at++; node = { kind: 'or', left: node, right: both() }; }
    return node;
  };
  const both = (): RuleNode => {
    let node = single();
    while (peek('&&')) { at++; node = { kind: 'and', left: node, right: single() }; }
    return node;
  };
  const single = (): RuleNode => {
    const token = tokens[at++] ?? fail('it ends where a matcher was expected');
    if (token.kind === 'operator' && token.text === '!') return { kind: 'not', operand: single() };
    if (token.kind === 'operator' && token.text === '(') {
      const node = either();
      expect(')', 'a parenthesis is not closed');
      return node;
    }
    if (token.kind !== 'word') return fail(`it has ${token.kind === 'value' ? 'a value' : `"${token.text}"`} where a matcher such as Host(\`example.com\`) was expected`);
    expect('(', `the matcher ${token.text} must be followed by its values in parentheses`);
    const values: string[] = [];
    while (!peek(')')) {
      const value = tokens[at++];
      if (value?.kind !== 'value') {
        return fail(value === undefined ? `the parenthesis of ${token.text} is not closed`
          : `${token.text}'s values must be in backticks or double quotes, as in ${token.text}(\`example.com\`)`);
      }
      values.push(value.text);
      if (at === tokens.length) fail(`the parenthesis of ${token.text} is not closed`);
      if (!peek(')')) expect(',', `${token.text}'s values must be separated by commas`);
    }
    at++;
    return { kind: 'matcher', name: token.text, values };
  };
  try {
    const node = either();
    if (at < tokens.length) fail(peek(')') ? 'a parenthesis is closed that was not opened' : 'two rules must be joined with && or ||');
    return { node };
  } catch (error) {
    if (error instanceof RuleFault) return { fault: error.message };
    throw error;
  }
}

/** How many values a matcher takes: exactly, or at least (`min`). */
type Arity = { readonly count: number; readonly atLeast?: true };
const ONE: Arity = { count: 1 };
const SOME: Arity = { count: 1, atLeast: true };
const TWO: Arity = { count: 2 };

// The matchers of Traefik v3 (each takes one value; join several with ||) and of its v2 syntax,
// which a router chooses with `ruleSyntax: v2`.
const MATCHERS: Readonly<Record<'http' | 'tcp', Readonly<Record<'v2' | 'v3', Readonly<Record<string, Arity>>>>>> = {
  http: {
    v3: { Host: ONE, HostRegexp: ONE, Path: ONE, PathPrefix: ONE, PathRegexp: ONE, Method: ONE, Header: TWO, HeaderRegexp: TWO,
      Query: { count: 1 }, QueryRegexp: TWO, ClientIP: ONE },
    v2: { Host: SOME, HostHeader: SOME, HostRegexp: SOME, Path: SOME, PathPrefix: SOME, Method: SOME, Headers: TWO, HeadersRegexp: TWO,
      Query: SOME, ClientIP: SOME },
  },
  tcp: {
    v3: { HostSNI: ONE, HostSNIRegexp: ONE, ClientIP: ONE, ALPN: ONE },
    v2: { HostSNI: SOME, HostSNIRegexp: SOME, ClientIP: SOME, ALPN: SOME },
  },
};

/** The proxy knows a matcher by its name, all lower case, all upper case, or capitalised. */
const spellings = (name: string) => [name, name.toLowerCase(), name.toUpperCase(), name[0] + name.slice(1).toLowerCase()];

function matcherFault(node: Extract<RuleNode, { kind: 'matcher' }>, section: 'http' | 'tcp', syntax: 'v2' | 'v3'): string | null {
  const known = MATCHERS[section][syntax];
  const name = Object.keys(known).find((candidate) => spellings(candidate).includes(node.name));
  const other = syntax === 'v3' ? 'v2' : 'v3';
  if (name === undefined) {
    const hint = Object.keys(MATCHERS[section][other]).some((candidate) => spellings(candidate).includes(node.name))
      ? ` (${node.name} is of the ${other} syntax: set the router's ruleSyntax to ${other})` : '';
    return `${node.name} is not a matcher of ${section.toUpperCase()} routers${hint}; expected one of ${Object.keys(known).join(', ')}`;
  }
  const arity = known[name]!;
  // v3's Query takes a key, or a key and a value.
  const most = name === 'Query' && syntax === 'v3' ? 2 : arity.atLeast ? Infinity : arity.count;
  if (node.values.length >= arity.count && node.values.length <= most) return null;
  const takes = most === Infinity ? `at least ${arity.count} value` : most === arity.count ? `${arity.count} value${arity.count > 1 ? 's' : ''}` : `${arity.count} or ${most} values`;
  const join = syntax === 'v3' && arity.count === 1 && node.values.length > 1 ? '; join several with ||' : '';
  return `${name} takes ${takes}, not ${node.values.length}${join}`;
}

function treeFault(node: RuleNode, section: 'http' | 'tcp', syntax: 'v2' | 'v3'): string | null {
  switch (node.kind) {
    case 'matcher': return matcherFault(node, section, syntax);
    case 'not': return treeFault(node.operand, section, syntax);
    default: return treeFault(node.left, section, syntax) ?? treeFault(node.right, section, syntax);
  }
}

/**
 * Why the proxy could not use `rule` for a router of `section` (with its `ruleSyntax`: v3 when
 * left out, the proxy's default), or null. The sentence does not name the rule's path.
 */
export function ruleFault(rule: string, section: 'http' | 'tcp', ruleSyntax: unknown): string | null {
  if (ruleSyntax !== undefined && ruleSyntax !== null && ruleSyntax !== 'v2' && ruleSyntax !== 'v3') return null; // refused as ruleSyntax
  const parsed = parseRule(rule);
  if ('fault' in parsed) return parsed.fault;
  return treeFault(parsed.node, section, ruleSyntax === 'v2' ? 'v2' : 'v3');
}
