import {
  MongoError, MongoNetworkError, MongoNotConnectedError, MongoOperationTimeoutError, MongoServerClosedError,
  MongoServerSelectionError, MongoTopologyClosedError,
} from 'mongodb';

/** The driver exports these two pool failures only by name. */
const poolOutages = new Set(['MongoPoolClosedError', 'MongoWaitQueueTimeoutError']);
/** A write on a socket the server has just closed reaches the caller as the socket's own error, unwrapped. */
const socketOutages = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ERR_SOCKET_CLOSED', 'ERR_STREAM_DESTROYED']);
const socketCode = (error: unknown) => (error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined);

/**
 * Failures that mean the server cannot be reached, as opposed to a refused operation.
 * A server closed by a topology change during an outage is one of them.
 */
export const isMongoOutage = (error: unknown): boolean =>
  error instanceof MongoNetworkError || error instanceof MongoServerSelectionError
  || error instanceof MongoNotConnectedError || error instanceof MongoTopologyClosedError
  || error instanceof MongoServerClosedError || error instanceof MongoOperationTimeoutError
  || (error instanceof MongoError && poolOutages.has(error.name))
  || socketOutages.has(socketCode(error) ?? '');
