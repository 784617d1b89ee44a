import { Type } from '@sinclair/typebox';
import { group, get, none, post } from './operation.ts';
import { ComposeRecord, DeploymentRecord } from './records.ts';
import { Bool, COMPOSE_SOURCE_TYPES, COMPOSE_TYPES, Closed, CreatedAt, MinStr, OneOf, Opt, OptNull, Status, Str } from './schema.ts';

const id = Closed({ composeId: MinStr() });
/** A template a compose service can be made from, as the catalogue lists it. */
const Template = Closed({
  id: Str(), name: Str(), description: Str(), version: Str(), tags: Type.Array(Str()),
  links: Closed({ github: Str(), website: Str(), docs: Str() }),
});

export const compose = group('compose', {
  create: post(Closed({
    name: MinStr(), description: OptNull(Str()), projectId: Str(), composeType: Opt(OneOf(COMPOSE_TYPES)), appName: Opt(Str()),
  }), ComposeRecord),
  one: get(id, ComposeRecord),
  update: post(Closed({
    composeId: MinStr(),
    name: Opt(MinStr()), appName: Opt(MinStr()), description: OptNull(Str()), env: OptNull(Str()),
    refreshToken: OptNull(Str()), composeFile: Opt(Str()), sourceType: Opt(OneOf(COMPOSE_SOURCE_TYPES)),
    composeType: Opt(OneOf(COMPOSE_TYPES)), repository: OptNull(Str()), owner: OptNull(Str()), branch: OptNull(Str()),
    autoDeploy: OptNull(Bool()), customGitUrl: OptNull(Str()), customGitBranch: OptNull(Str()),
    customGitSSHKey: OptNull(Str()), command: Opt(Str()), composePath: Opt(MinStr()), composeStatus: Opt(Status()),
    projectId: Opt(Str()), createdAt: CreatedAt(),
  }), ComposeRecord),
  delete: post(id, ComposeRecord),
  cleanQueues: post(id, ComposeRecord),
  deploy: post(id, DeploymentRecord),
  redeploy: post(id, DeploymentRecord),
  stop: post(id, ComposeRecord),
  generateSSHKey: post(id, ComposeRecord),
  refreshToken: post(id, ComposeRecord),
  removeSSHKey: post(id, ComposeRecord),
  allServices: get(id, Type.Array(Str())),
  getDefaultCommand: get(id, Str()),
  randomizeCompose: post(Closed({ composeId: MinStr(), prefix: Opt(Str()) }), ComposeRecord),
  deployTemplate: post(Closed({ projectId: Str(), id: MinStr() }), ComposeRecord),
  templates: get(none, Type.Array(Template)),
});
