// What sits in front of an application: image registries, redirects, published ports,
// basic-auth users and TLS certificates.
import { group, get, none, post } from './operation.ts';
import { Bool, Closed, MinStr, Nullable, OneOf, Opt, OptNull, PROTOCOLS, Port, REGISTRY_TYPES, Str } from './schema.ts';
import { Type } from '@sinclair/typebox';

const registryFields = {
  registryName: MinStr(), username: MinStr(), password: MinStr(), registryUrl: Str(), registryType: OneOf(REGISTRY_TYPES),
};
export const registry = group('registry', {
  create: post(Closed({ ...registryFields, imagePrefix: Nullable(Str()) })),
  remove: post(Closed({ registryId: MinStr() })),
  update: post(Closed({
    registryId: MinStr(), registryName: Opt(MinStr()), username: Opt(MinStr()), password: Opt(MinStr()),
    registryUrl: Opt(MinStr()), adminId: Opt(MinStr()), imagePrefix: OptNull(Str()), createdAt: Opt(Str()),
    registryType: Opt(OneOf(REGISTRY_TYPES)),
  })),
  all: get(none),
  one: get(Closed({ registryId: MinStr() })),
  testRegistry: post(Closed({ ...registryFields, imagePrefix: OptNull(Str()) })),
  enableSelfHostedRegistry: post(Closed({ registryUrl: MinStr(), username: MinStr(), password: MinStr() })),
});

const redirectFields = { regex: MinStr(), replacement: MinStr(), permanent: Bool() };
export const redirects = group('redirects', {
  create: post(Closed({ ...redirectFields, applicationId: Str() })),
  one: get(Closed({ redirectId: MinStr() })),
  delete: post(Closed({ redirectId: MinStr() })),
  update: post(Closed({ redirectId: MinStr(), ...redirectFields })),
});

const protocol = Opt(Type.Union([Type.Literal('tcp'), Type.Literal('udp')], { enum: PROTOCOLS, default: 'tcp' }));
export const port = group('port', {
  create: post(Closed({ publishedPort: Port(), targetPort: Port(), protocol, applicationId: MinStr() })),
  one: get(Closed({ portId: MinStr() })),
  delete: post(Closed({ portId: MinStr() })),
  update: post(Closed({ portId: MinStr(), publishedPort: Port(), targetPort: Port(), protocol })),
});

export const security = group('security', {
  create: post(Closed({ applicationId: Str(), username: MinStr(), password: MinStr() })),
  one: get(Closed({ securityId: MinStr() })),
  delete: post(Closed({ securityId: MinStr() })),
  update: post(Closed({ securityId: MinStr(), username: MinStr(), password: MinStr() })),
});

export const certificates = group('certificates', {
  create: post(Closed({
    certificateId: Opt(Str()), name: MinStr(), certificateData: MinStr(), privateKey: MinStr(),
    certificatePath: Opt(Str()), autoRenew: OptNull(Bool()),
  })),
  one: get(Closed({ certificateId: MinStr() })),
  remove: post(Closed({ certificateId: MinStr() })),
  all: get(none),
});
