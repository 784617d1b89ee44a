// Names the failed tests again at the end of the run's summary, so the tail of a long log shows
// them. Written at once when the summary counts the failures, so they show even if the run is
// cut short after it.
import { writeSync } from 'node:fs';

export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type === 'test:fail' && !event.data.todo) {
      const entry = describe(event.data);
      if (entry) failed.push(entry);
    } else if (event.type === 'test:diagnostic' && event.data.nesting === 0 && event.data.message.startsWith('fail ') && failed.length > 0) {
      writeSync(2, `\n# ${failed.length} failed test(s):\n${failed.join('\n')}\n`);
    }
  }
  yield '';
}

function describe({ name, file, line, details }) {
  const error = details?.error;
  if (error?.failureType === 'subtestsFailed') return undefined;
  const cause = error?.cause ?? error;
  const reason = String(cause?.message ?? cause ?? '').split('\n').slice(0, 6).join('\n    ');
  return `not ok: ${name}\n    at ${file ?? '?'}:${line ?? '?'}\n    ${reason}`;
}
