import {
  MongoError, MongoNetworkError, MongoNotConnectedError, MongoOperationTimeoutError, MongoServerClosedError,
  MongoServerSelectionError, MongoTopologyClosedError,
} from 'mongodb';
import { isSocketOutage } from '../../ports/unavailable.ts';

/** The driver exports these two pool failures only by name. */
const poolOutages = new Set(['MongoPoolClosedError', 'MongoWaitQueueTimeoutError']);

/**
 * Failures that mean the server cannot be reached, as opposed to a refused operation.
 * A server closed by a topology change during an outage is one of them.
 */
export const isMongoOutage = (error: unknown): boolean =>
  error instanceof MongoNetworkError || error instanceof MongoServerSelectionError
  || error instanceof MongoNotConnectedError || error instanceof MongoTopologyClosedError
  || error instanceof MongoServerClosedError || error instanceof MongoOperationTimeoutError
  || (error instanceof MongoError && poolOutages.has(error.name))
  // A write on a socket the server has just closed reaches the caller as the socket's own error, unwrapped.
  || isSocketOutage(error);
