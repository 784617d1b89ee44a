// How many tasks an application runs is said once: `replicas`, or the replicated mode's own count,
// never two different numbers; a global or job mode has no count, so `replicas` stays 1 with it.
// Judged on the record as a save would leave it, when the save sends either field (a record saved
// before this rule is not refused an unrelated change).
import { badRequest } from '../../errors.ts';
import type { Application } from './record.ts';

type Counted = Pick<Application, 'replicas' | 'modeOrch'>;

export function mustCountReplicasOnce(record: Counted, sent: Partial<Counted>): void {
  if (!('replicas' in sent) && !('modeOrch' in sent)) return;
  const field = 'modeOrch' in sent ? 'modeOrch' : 'replicas';
  const { replicas, modeOrch } = record;
  const countless = ['Global', 'ReplicatedJob', 'GlobalJob'].find((kind) => modeOrch?.[kind as keyof typeof modeOrch]);
  if (countless && replicas !== 1) {
    throw badRequest(field, `a ${countless} mode has no replica count: replicas must be 1 with it (it is ${replicas})`);
  }
  const count = modeOrch?.Replicated?.Replicas;
  if (!countless && count !== undefined && count !== replicas) {
    throw badRequest(field, `modeOrch.Replicated.Replicas (${count}) and replicas (${replicas}) differ: give the count once, or the same in both`);
  }
}
