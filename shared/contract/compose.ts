import { group, get, none, post } from './operation.ts';
import { Bool, COMPOSE_SOURCE_TYPES, COMPOSE_TYPES, Closed, MinStr, OneOf, Opt, OptNull, Status, Str } from './schema.ts';

const id = Closed({ composeId: MinStr() });

export const compose = group('compose', {
  create: post(Closed({
    name: MinStr(), description: OptNull(Str()), projectId: Str(), composeType: Opt(OneOf(COMPOSE_TYPES)), appName: Opt(Str()),
  })),
  one: get(id),
  update: post(Closed({
    composeId: MinStr(),
    name: Opt(MinStr()), appName: Opt(MinStr()), description: OptNull(Str()), env: OptNull(Str()),
    refreshToken: OptNull(Str()), composeFile: Opt(Str()), sourceType: Opt(OneOf(COMPOSE_SOURCE_TYPES)),
    composeType: Opt(OneOf(COMPOSE_TYPES)), repository: OptNull(Str()), owner: OptNull(Str()), branch: OptNull(Str()),
    autoDeploy: OptNull(Bool()), customGitUrl: OptNull(Str()), customGitBranch: OptNull(Str()),
    customGitSSHKey: OptNull(Str()), command: Opt(Str()), composePath: Opt(MinStr()), composeStatus: Opt(Status()),
    projectId: Opt(Str()), createdAt: Opt(Str()),
  })),
  delete: post(id),
  cleanQueues: post(id),
  deploy: post(id),
  redeploy: post(id),
  stop: post(id),
  generateSSHKey: post(id),
  refreshToken: post(id),
  removeSSHKey: post(id),
  allServices: get(id),
  getDefaultCommand: get(id),
  randomizeCompose: post(Closed({ composeId: MinStr(), prefix: Opt(Str()) })),
  deployTemplate: post(Closed({ projectId: Str(), id: MinStr() })),
  templates: get(none),
});
