import { MongoNetworkError, MongoNotConnectedError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';

/** Failures that mean the server cannot be reached, as opposed to a refused operation. */
export const isMongoOutage = (error: unknown): boolean =>
  error instanceof MongoNetworkError || error instanceof MongoServerSelectionError
  || error instanceof MongoNotConnectedError || error instanceof MongoTopologyClosedError;
