// What sits in front of an application: image registries, redirects, published ports,
// basic-auth users and TLS certificates.
import { group, get, none, post } from './operation.ts';
import { CertificateRecord, PortRecord, RedirectRecord, RegistryRecord, SecurityRecord } from './records.ts';
import { Bool, Closed, CreatedAt, MinStr, Nullable, OneOf, Opt, OptNull, PROTOCOLS, Port, REGISTRY_TYPES, Str } from './schema.ts';
import { Type } from '@sinclair/typebox';

const registryFields = {
  registryName: MinStr(), username: MinStr(), password: MinStr(), registryUrl: Str(), registryType: OneOf(REGISTRY_TYPES),
};
export const registry = group('registry', {
  create: post(Closed({ ...registryFields, imagePrefix: Nullable(Str()) }), RegistryRecord),
  remove: post(Closed({ registryId: MinStr() }), RegistryRecord),
  update: post(Closed({
    registryId: MinStr(), registryName: Opt(MinStr()), username: Opt(MinStr()), password: Opt(MinStr()),
    registryUrl: Opt(MinStr()), adminId: Opt(MinStr()), imagePrefix: OptNull(Str()), createdAt: CreatedAt(),
    registryType: Opt(OneOf(REGISTRY_TYPES)),
  }), RegistryRecord),
  all: get(none, Type.Array(RegistryRecord)),
  one: get(Closed({ registryId: MinStr() }), RegistryRecord),
  testRegistry: post(Closed({ ...registryFields, imagePrefix: OptNull(Str()) }), Bool()),
  enableSelfHostedRegistry: post(Closed({ registryUrl: MinStr(), username: MinStr(), password: MinStr() }), RegistryRecord),
});

const redirectFields = { regex: MinStr(), replacement: MinStr(), permanent: Bool() };
export const redirects = group('redirects', {
  create: post(Closed({ ...redirectFields, applicationId: Str() }), RedirectRecord),
  one: get(Closed({ redirectId: MinStr() }), RedirectRecord),
  delete: post(Closed({ redirectId: MinStr() }), RedirectRecord),
  update: post(Closed({ redirectId: MinStr(), ...redirectFields }), RedirectRecord),
});

const Protocol = (options: { default?: 'tcp' } = {}) =>
  Opt(Type.Union([Type.Literal('tcp'), Type.Literal('udp')], { enum: PROTOCOLS, ...options }));
export const port = group('port', {
  create: post(Closed({ publishedPort: Port(), targetPort: Port(), protocol: Protocol({ default: 'tcp' }), applicationId: MinStr() }), PortRecord),
  one: get(Closed({ portId: MinStr() }), PortRecord),
  delete: post(Closed({ portId: MinStr() }), PortRecord),
  update: post(Closed({ portId: MinStr(), publishedPort: Port(), targetPort: Port(), protocol: Protocol() }), PortRecord), // left out: the port keeps its protocol
});

export const security = group('security', {
  create: post(Closed({ applicationId: Str(), username: MinStr(), password: MinStr() }), SecurityRecord),
  one: get(Closed({ securityId: MinStr() }), SecurityRecord),
  delete: post(Closed({ securityId: MinStr() }), SecurityRecord),
  update: post(Closed({ securityId: MinStr(), username: MinStr(), password: MinStr() }), SecurityRecord),
});

export const certificates = group('certificates', {
  create: post(Closed({
    certificateId: Opt(Str()), name: MinStr(), certificateData: MinStr(), privateKey: MinStr(),
    certificatePath: Opt(Str()), autoRenew: OptNull(Bool()),
  }), CertificateRecord),
  one: get(Closed({ certificateId: MinStr() }), CertificateRecord),
  remove: post(Closed({ certificateId: MinStr() }), CertificateRecord),
  all: get(none, Type.Array(CertificateRecord)),
});
