import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MongoNetworkError, MongoServerClosedError, MongoServerError, MongoTopologyClosedError } from 'mongodb';
import { isMongoOutage } from './outage.ts';

test('a MongoDB server closed or unreachable mid-call counts as an outage (503), a refused operation does not', () => {
  assert.equal(isMongoOutage(new MongoServerClosedError()), true);
  assert.equal(isMongoOutage(new MongoTopologyClosedError()), true);
  assert.equal(isMongoOutage(new MongoNetworkError('connection reset')), true);
  // Seen under load: the driver lets a write after the server's FIN through as the socket's error.
  assert.equal(isMongoOutage(Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' })), true);
  assert.equal(isMongoOutage(new MongoServerError({ message: 'E11000 duplicate key', code: 11000 })), false);
  assert.equal(isMongoOutage(new Error('anything else')), false);
});
