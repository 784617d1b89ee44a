import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

const ISSUER = 'Berth';
const PERIOD_SECONDS = 30;
/** One period either side, for clocks that drift a little. */
const TOLERANCE_SECONDS = 30;

export interface TwoFactorSetup {
  readonly secret: string;
  readonly uri: string;
  readonly qrCodeUrl: string;
}

export async function newTwoFactorSetup(label: string): Promise<TwoFactorSetup> {
  const secret = generateSecret();
  const uri = generateURI({ issuer: ISSUER, label, secret });
  return { secret, uri, qrCodeUrl: await QRCode.toDataURL(uri) };
}

/**
 * The TOTP time step a pin belongs to when it is valid for `secret` at `now` and newer than
 * `lastStep` (a pin is accepted once); otherwise null.
 */
export async function acceptedStep(secret: string, pin: string, now: Date, lastStep: number | null): Promise<number | null> {
  try {
    const result = await verify({
      secret, token: pin, epoch: Math.floor(now.getTime() / 1000), epochTolerance: TOLERANCE_SECONDS,
      ...(lastStep !== null && { afterTimeStep: lastStep }),
    });
    if (!result.valid) return null;
    return 'timeStep' in result && typeof result.timeStep === 'number'
      ? result.timeStep
      : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + ('delta' in result ? Number(result.delta) : 0);
  } catch {
    return null; // a malformed secret or pin is simply not a valid pin
  }
}
