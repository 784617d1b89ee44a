import type { contract } from '@berth/shared/contract/index';
import { certificateAggregate, folderOf, type NewCertificate, type Placed } from '@berth/shared/domain/certificate/certificate';
import { certificateFolderAggregate, parentsOf } from '@berth/shared/domain/certificate/folder';
import { mustBeAcceptable } from '@berth/shared/domain/certificate/acceptable';
import { mustNotExist } from '@berth/shared/domain/decisions';
import { chainText, inspectCertificate } from '@berth/shared/domain/certificate/pem';
import { badRequest } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { all, change, one, type GroupHandlers } from './kit.ts';

/** A chosen id names a stream and the default folder of the files: plain characters only. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A new certificate's id; a chosen one taken is refused here too (the decider checks again), before any claim. */
async function certificateIdOf(given: string | undefined, ctx: Context): Promise<string> {
  if (!given) return ctx.newId(certificateAggregate);
  if (!ID.test(given)) throw badRequest('certificateId', 'must be 1 to 64 letters, digits, "_" or "-"');
  mustNotExist((await ctx.load(certificateAggregate, given)).state, certificateAggregate.label, 'certificateId');
  return given;
}

/**
 * Where the stored certificates' files are, read here so the decider stays pure. Not race-free:
 * the claims decide a race; this read keeps the certificates stored before them in their folders.
 */
const placedCertificates = async (ctx: Context): Promise<Placed[]> =>
  (await ctx.infra.readStore.all(certificateAggregate.name))
    .map((doc) => ({ certificateId: String(doc.certificateId), certificatePath: String(doc.certificatePath) }));

const FOLDER = certificateFolderAggregate;

/** Leaves each of `paths` (its own folder and those above it), as a removal or a refusal does. */
const leave = (ctx: Context, paths: readonly string[], certificateId: string) =>
  Promise.all(paths.map((path) => ctx.execute(FOLDER, path, { type: 'LeaveFolder', data: { path, certificateId } })));

/**
 * Creates a certificate in `path` once its folders are decided (see domain/certificate/folder.ts):
 * those above entered, outermost first, then its own taken; all left again if any is refused or the
 * creation fails.
 */
async function inFolder<T>(ctx: Context, path: string, certificateId: string, create: () => Promise<T>): Promise<T> {
  const claimed: string[] = [];
  try {
    // Only what this call appended is its to leave: a folder the certificate held already (its
    // creation sent twice at once) stays with the one that took it.
    for (const parent of parentsOf(path)) {
      const { position } = await ctx.execute(FOLDER, parent, { type: 'EnterFolder', data: { path: parent, certificateId, asked: path } });
      if (position !== 0) claimed.push(parent);
    }
    const { position } = await ctx.execute(FOLDER, path, { type: 'TakeFolder', data: { path, certificateId, asked: path } });
    if (position !== 0) claimed.push(path);
    return await create();
  } catch (error) {
    await leave(ctx, claimed, certificateId);
    throw error;
  }
}

export const certificates: GroupHandlers<typeof contract.certificates> = {
  create: async (input, ctx) => {
    // Read before the key is sealed: a sealed key can no longer be checked against the certificate.
    const facts = inspectCertificate(input.certificateData, input.privateKey);
    const certificateId = await certificateIdOf(input.certificateId, ctx);
    const data: NewCertificate = {
      certificateId, name: input.name, certificateData: chainText(input.certificateData),
      privateKey: ctx.secrets.seal(input.privateKey),
      certificatePath: input.certificatePath || null,
      autoRenew: input.autoRenew ?? false, ...facts, createdAt: ctx.now, taken: await placedCertificates(ctx),
    };
    // Checked here too (the decider checks again): a refused input must append no claim.
    mustBeAcceptable(data);
    const path = folderOf(data);
    return inFolder(ctx, path, certificateId, () => change(certificateAggregate, () => ({ type: 'CreateCertificate', data }))(input, ctx));
  },
  one: one(certificateAggregate),
  all: all(certificateAggregate),
  remove: async (input, ctx) => {
    const { before } = await ctx.execute(certificateAggregate, input.certificateId, { type: 'RemoveCertificate', data: { certificateId: input.certificateId } });
    if (before) await leave(ctx, [...parentsOf(before.certificatePath), before.certificatePath], input.certificateId);
    return ctx.view(certificateAggregate, before);
  },
};
