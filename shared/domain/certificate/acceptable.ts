// What Berth refuses of a certificate it could read (pem.ts): one the proxy could serve at no
// moment from now on, which clients would refuse in every application's file, and a renewal Berth
// cannot do (it holds no account with the certificate's issuer). Pure: the time comes in.
import { badRequest } from '../../errors.ts';
import type { CertificateFacts } from './pem.ts';

/** BAD_REQUEST naming certificateData when the certificate is valid at no moment from `now` on; one not valid yet is taken. */
export function mustBeValidFrom({ notBefore, notAfter }: Pick<CertificateFacts, 'notBefore' | 'notAfter'>, now: string): void {
  if (Date.parse(notAfter) <= Date.parse(notBefore)) {
    throw badRequest('certificateData', `is valid for no moment: its notAfter (${notAfter}) is not after its notBefore (${notBefore}); have the certificate issued again and upload that one`);
  }
  if (Date.parse(notAfter) < Date.parse(now)) {
    throw badRequest('certificateData', `expired on ${notAfter}: clients refuse an expired certificate; upload its renewed certificate instead`);
  }
}

/** Kept in the interface; only false (or null) is taken, as Berth renews nothing. */
export function mustNotAskRenewal(autoRenew: boolean | null): void {
  if (autoRenew === true) {
    throw badRequest('autoRenew', 'cannot be true: Berth cannot renew an uploaded certificate (it holds no account with its issuer); renew it with its issuer, then upload the renewed certificate with certificates.create in its place and remove this one');
  }
}

/** Everything above, `createdAt` being now: checked by the handler before it claims a folder, and by the decider. */
export function mustBeAcceptable(certificate: Pick<CertificateFacts, 'notBefore' | 'notAfter'> & { autoRenew: boolean | null; createdAt: string }): void {
  mustNotAskRenewal(certificate.autoRenew);
  mustBeValidFrom(certificate, certificate.createdAt);
}
