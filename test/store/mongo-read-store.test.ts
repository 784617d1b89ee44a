// The read store conformance suite on MongoDB: the real server when MONGO_URL is set, else the
// wire-protocol stand-in; with transactions and with the guarded writes used without them.
import { after, before } from 'node:test';
import { MongoReadStore } from '@berth/shared/adapters/mongodb/read-store';
import { freshDatabase, startMongo, type TestMongo } from '../support/mongo.ts';
import { readStoreConformance } from './read-store-conformance.ts';

let mongo: TestMongo;
before(async () => { mongo = await startMongo(); });
after(() => mongo.stop());

for (const transactions of [false, true]) {
  readStoreConformance(`mongodb (${transactions ? 'in transactions' : 'guarded writes, no transactions'})`, async () => {
    const database = freshDatabase();
    // A real standalone server offers no transactions: there it chooses by itself.
    const chosen = mongo.real && transactions ? undefined : transactions;
    return { open: () => MongoReadStore.connect(mongo.url, { database, transactions: chosen }) };
  });
}
