// What a project's answer shows of each of its services, kept as one small document per service
// and found by project: `project.one` is a project and one indexed lookup, `project.all` two
// scans, and neither opens a service's record (nor its secrets) on the way out.
import { ProjectWithServices } from '@berth/shared/contract/project';
import { SERVICE_KINDS, SERVICE_SUMMARIES, type ServiceKindOfProject } from '@berth/shared/domain/service-kinds';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Projection } from './projection.ts';

interface SummaryKind extends ServiceKindOfProject {
  readonly fields: readonly string[];
}

const byAggregate = new Map<string, SummaryKind>(SERVICE_KINDS.map((kind) => {
  const list = ProjectWithServices.properties[kind.key as keyof typeof ProjectWithServices.properties] as unknown as
    { items: { properties: Record<string, unknown> } };
  return [kind.aggregate.name, { ...kind, fields: Object.keys(list.items.properties) }];
}));

export const serviceSummaries: Projection = {
  name: 'serviceSummaries',
  // Owned, so a rebuild of this projection alone empties it before it switches the new ones in.
  collections: [SERVICE_SUMMARIES],
  aggregates: [...byAggregate.keys()],
  documentPerStream: true,
  keysOf: (_event, { id }) => [{ collection: SERVICE_SUMMARIES, id }],
  // The service's own evolve, over the fields the summary keeps: every field it shows comes
  // from the service's events the same way its record's does.
  evolve(doc, event, stream) {
    const kind = byAggregate.get(stream.aggregate)!;
    const state = kind.aggregate.evolve(doc, event) as Doc | null;
    if (state === null) return null;
    const summary: Doc = { kind: kind.key };
    for (const field of kind.fields) summary[field] = state[field];
    return summary;
  },
};
