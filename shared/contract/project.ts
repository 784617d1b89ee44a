import { group, get, none, post } from './operation.ts';
import { Closed, MinStr, OptNull, Str } from './schema.ts';

export const project = group('project', {
  create: post(Closed({ name: MinStr(), description: OptNull(Str()) })),
  one: get(Closed({ projectId: MinStr() })),
  all: get(none),
  remove: post(Closed({ projectId: MinStr() })),
  update: post(Closed({ name: MinStr(), description: OptNull(Str()), projectId: MinStr() })),
});
