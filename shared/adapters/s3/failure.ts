// An S3 failure in words a user can act on: the server's own code and message when it answered,
// the network's reason when it did not. Never the secret key (the SDK never puts it in either).
import { ObjectStorageError, type BucketAddress } from '../../ports/object-storage.ts';

interface SdkFailure {
  name?: string;
  code?: string;
  message?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  ECONNRESET: 'the connection was reset',
  TimeoutError: 'the connection timed out',
};

export function describeFailure(error: unknown, what: string, address: BucketAddress): ObjectStorageError {
  if (error instanceof ObjectStorageError) return error;
  const failure = (error ?? {}) as SdkFailure;
  const where = `${address.endpoint} bucket ${address.bucket}`;
  const network = NETWORK[failure.code ?? ''] ?? NETWORK[failure.name ?? ''];
  if (network) return new ObjectStorageError(`Could not ${what} at ${where}: ${network}`, failure.code ?? failure.name ?? 'Network');
  const status = failure.$metadata?.httpStatusCode;
  const code = failure.Code ?? failure.name ?? 'Error';
  const message = failure.message && failure.message !== code && failure.message !== 'UnknownError' ? `: ${failure.message}` : '';
  return new ObjectStorageError(`Could not ${what} at ${where}: ${code}${status ? ` (HTTP ${status})` : ''}${message}`, code);
}
