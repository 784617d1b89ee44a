import type { contract } from '@berth/shared/contract/index';
import { certificateAggregate, type Placed } from '@berth/shared/domain/certificate/certificate';
import { chainText, inspectCertificate } from '@berth/shared/domain/certificate/pem';
import { badRequest } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { all, change, one, removal, type GroupHandlers } from './kit.ts';

/** A chosen id names a stream and the default folder of the files: plain characters only. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

function certificateIdOf(given: string | undefined, ctx: Context): string {
  if (!given) return ctx.newId(certificateAggregate);
  if (!ID.test(given)) throw badRequest('certificateId', 'must be 1 to 64 letters, digits, "_" or "-"');
  return given;
}

/** Where the stored certificates' files are, read here so the decider stays pure (read models: not race-free). */
const placedCertificates = async (ctx: Context): Promise<Placed[]> =>
  (await ctx.infra.readStore.all(certificateAggregate.name))
    .map((doc) => ({ certificateId: String(doc.certificateId), certificatePath: String(doc.certificatePath) }));

export const certificates: GroupHandlers<typeof contract.certificates> = {
  create: change(certificateAggregate, async (input, ctx) => {
    // Read before the key is sealed: a sealed key can no longer be checked against the certificate.
    const facts = inspectCertificate(input.certificateData, input.privateKey);
    const certificateId = certificateIdOf(input.certificateId, ctx);
    return {
      type: 'CreateCertificate',
      data: {
        certificateId, name: input.name, certificateData: chainText(input.certificateData),
        privateKey: ctx.secrets.seal(input.privateKey),
        certificatePath: input.certificatePath || null,
        autoRenew: input.autoRenew ?? false, ...facts, createdAt: ctx.now, taken: await placedCertificates(ctx),
      },
    };
  }),
  one: one(certificateAggregate),
  all: all(certificateAggregate),
  remove: removal(certificateAggregate, (input) => ({ type: 'RemoveCertificate', data: { certificateId: input.certificateId } })),
};
