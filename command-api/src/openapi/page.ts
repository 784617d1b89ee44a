// The browsable reference: one self-contained HTML page (no network needed) with the OpenAPI
// document embedded, rendered in the browser into a table of contents and one section per operation,
// each opening with what the operation does (its `description`, `code` spans as code).

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: 17rem 1fr; color: #1d232b; }
nav { position: sticky; top: 0; height: 100vh; overflow: auto; background: #f4f6f8; padding: 1rem; box-sizing: border-box; }
nav h2 { font-size: .8rem; text-transform: uppercase; margin: 1rem 0 .2rem; color: #5b6670; }
nav a { display: block; color: inherit; text-decoration: none; font-size: .85rem; padding: 1px 0; }
main { padding: 1rem 2rem 4rem; max-width: 60rem; }
section.operation { border-top: 1px solid #dde2e6; padding: .6rem 0 1rem; }
.method { font: bold .75rem monospace; padding: 2px 6px; border-radius: 3px; color: #fff; background: #2f7d4f; }
.method.post { background: #2c5f9e; }
table { border-collapse: collapse; margin: .3rem 0; font-size: .85rem; }
td, th { border: 1px solid #dde2e6; padding: 2px 8px; text-align: left; vertical-align: top; }
pre { background: #f4f6f8; padding: .5rem; overflow: auto; font-size: .8rem; }
.lock { font-size: .8rem; color: #5b6670; }
p.summary { margin: .3rem 0 .4rem; max-width: 48rem; }`;

// Runs in the browser: reads the embedded document and writes the page.
const SCRIPT = `
const doc = JSON.parse(document.getElementById('openapi').textContent);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
};
// A text with \`code\` spans: the spans as <code>, the rest as text (never parsed as HTML).
const prose = (text) => text.split('\`').map((part, i) => (i % 2 ? el('code', {}, part) : part));
const typeOf = (s) => s.type ? [].concat(s.type).join(' | ') : s.anyOf ? s.anyOf.map(typeOf).join(' | ') : s.const !== undefined ? JSON.stringify(s.const) : 'any';
const bounds = (s) => ['minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'format', 'enum']
  .filter((k) => s[k] !== undefined).map((k) => k + ': ' + (Array.isArray(s[k]) ? s[k].join(', ') : s[k])).join('; ');
const fields = (rows) => el('table', {}, el('tr', {}, el('th', {}, 'field'), el('th', {}, 'type'), el('th', {}, 'required'), el('th', {}, 'bounds')),
  ...rows.map(([name, s, required]) => el('tr', {}, el('td', {}, el('code', {}, name)), el('td', {}, typeOf(s)), el('td', {}, required ? 'yes' : ''), el('td', {}, bounds(s) || (s.description ?? '')))));
document.title = doc.info.title + ' API reference';
const nav = document.querySelector('nav');
const main = document.querySelector('main');
main.append(el('h1', {}, doc.info.title + ' API reference ', el('small', {}, doc.info.version)), el('p', {}, doc.info.description));
const groups = new Map();
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    const group = op.tags[0];
    if (!groups.has(group)) { groups.set(group, []); nav.append(el('h2', {}, group)); }
    nav.append(el('a', { href: '#op-' + op.operationId }, op.operationId));
    const section = el('section', { class: 'operation', id: 'op-' + op.operationId },
      el('h3', {}, el('span', { class: 'method ' + method }, method.toUpperCase()), ' ', el('code', {}, path)),
      el('p', { class: 'summary' }, ...prose(op.description ?? op.summary ?? '')),
      el('div', { class: 'lock' }, op.security.length ? 'Bearer token required' : 'No token needed'));
    const input = op.parameters ? op.parameters.map((p) => [p.name, p.schema, p.required])
      : Object.entries(op.requestBody.content['application/json'].schema.properties ?? {})
        .map(([name, s]) => [name, s, (op.requestBody.content['application/json'].schema.required ?? []).includes(name)]);
    section.append(el('h4', {}, op.parameters ? 'Query' : 'JSON body'), input.length ? fields(input) : el('p', {}, 'nothing'));
    const answer = op.responses['200'].content;
    section.append(el('h4', {}, 'Answer (' + Object.keys(answer).join(', ') + ')'),
      el('details', {}, el('summary', {}, 'schema'), el('pre', {}, JSON.stringify(answer['application/json'].schema, null, 2))),
      el('p', { class: 'lock' }, 'Errors: ' + Object.keys(op.responses).filter((s) => s !== '200').join(', ') + ' as { message, code, issues }'));
    main.append(section);
  }
}`;

/** The reference page for `document`; the JSON is escaped so that no `</script>` can end the tag early. */
export function referencePage(document: object): string {
  const embedded = JSON.stringify(document).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Berth API reference</title><style>${STYLE}</style></head>
<body><nav></nav><main></main>
<script type="application/json" id="openapi">${embedded}</script>
<script>${SCRIPT}</script>
</body></html>`;
}
