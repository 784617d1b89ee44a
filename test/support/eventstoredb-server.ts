// An EventStoreDB stand-in for the tests: no server can run here, so this one serves the parts
// of the Streams gRPC service the adapter uses (append with an expected revision, read a stream,
// read $all forwards and backwards, catch-up subscriptions to $all with a filter) from the very
// service definition and messages the client package ships, so the adapter talks the real wire
// protocol. Everything else answers UNIMPLEMENTED, as an older server would.
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import type * as StreamsPb from '@eventstore/db-client/generated/streams_pb.js';
import type * as SharedPb from '@eventstore/db-client/generated/shared_pb.js';
import { TestLog, type Expected, type Proposed, type StoredEvent } from './eventstoredb-log.ts';

const require = createRequire(import.meta.url);
const pb = require('@eventstore/db-client/generated/streams_pb.js') as typeof StreamsPb;
const shared = require('@eventstore/db-client/generated/shared_pb.js') as typeof SharedPb;
const { StreamsService } = require('@eventstore/db-client/generated/streams_grpc_pb.js') as {
  StreamsService: grpc.ServiceDefinition;
};
const { ReadReq, ReadResp, AppendResp } = pb;

const streamId = (name: string) => new shared.StreamIdentifier().setStreamName(Buffer.from(name));
const TICKS_AT_EPOCH = 621355968000000000n;

function toReadResp(event: StoredEvent): StreamsPb.ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent()
    .setId(new shared.UUID().setString(event.id))
    .setStreamIdentifier(streamId(event.stream))
    .setStreamRevision(String(event.revision))
    .setPreparePosition(String(event.position))
    .setCommitPosition(String(event.position))
    .setData(event.data)
    .setCustomMetadata(event.customMetadata);
  const metadata = recorded.getMetadataMap();
  metadata.set('type', event.type);
  metadata.set('content-type', event.contentType);
  metadata.set('created', String(TICKS_AT_EPOCH + event.created * 10_000n));
  const read = new ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(String(event.position));
  return new ReadResp().setEvent(read);
}

function filterOf(options: StreamsPb.ReadReq.Options): (event: StoredEvent) => boolean {
  if (!options.hasFilter()) return () => true;
  const filter = options.getFilter()!;
  const onType = filter.hasEventType();
  const expression = onType ? filter.getEventType()! : filter.getStreamIdentifier()!;
  const regex = expression.getRegex() ? new RegExp(expression.getRegex()) : null;
  const prefixes = expression.getPrefixList();
  return (event) => {
    const subject = onType ? event.type : event.stream;
    return (!regex || regex.test(subject)) && (prefixes.length === 0 || prefixes.some((prefix) => subject.startsWith(prefix)));
  };
}

export class EventStoreDbTestServer {
  private readonly server = new grpc.Server();
  private readonly calls = new Set<grpc.ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>>();
  url = '';
  port = 0;

  /** A restarted server is given the log the stopped one had. */
  constructor(readonly log = new TestLog()) {}

  async start(port = 0): Promise<this> {
    this.server.addService(StreamsService, {
      append: (call: grpc.ServerReadableStream<StreamsPb.AppendReq, StreamsPb.AppendResp>, done: grpc.sendUnaryData<StreamsPb.AppendResp>) =>
        this.append(call, done),
      read: (call: grpc.ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>) => this.read(call),
    });
    const bound = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, at) => (error ? reject(error) : resolve(at))));
    this.port = bound;
    this.url = `esdb://127.0.0.1:${bound}?tls=false`;
    return this;
  }

  /** Drops every open call and stops, as a crashed server would. */
  async stop(): Promise<void> {
    for (const call of this.calls) call.destroy(new Error('server stopped'));
    this.server.forceShutdown();
  }

  private append(call: grpc.ServerReadableStream<StreamsPb.AppendReq, StreamsPb.AppendResp>, done: grpc.sendUnaryData<StreamsPb.AppendResp>) {
    let options: StreamsPb.AppendReq.Options | undefined;
    const proposed: Proposed[] = [];
    call.on('data', (request: StreamsPb.AppendReq) => {
      if (request.hasOptions()) options = request.getOptions();
      const message = request.getProposedMessage();
      if (!message) return;
      const metadata = message.getMetadataMap();
      proposed.push({
        id: message.getId()!.getString(), type: metadata.get('type') ?? '', contentType: metadata.get('content-type') ?? '',
        data: message.getData_asU8(), customMetadata: message.getCustomMetadata_asU8(),
      });
    });
    call.on('end', () => {
      if (!options) return done({ code: grpc.status.INVALID_ARGUMENT, details: 'no options' });
      const name = Buffer.from(options.getStreamIdentifier()!.getStreamName_asU8()).toString();
      const expected: Expected = options.hasRevision() ? BigInt(options.getRevision())
        : options.hasNoStream() ? 'no_stream' : options.hasStreamExists() ? 'stream_exists' : 'any';
      const outcome = this.log.append(name, expected, proposed);
      const response = new AppendResp();
      if (outcome.ok) {
        const position = new AppendResp.Position().setCommitPosition(String(outcome.position)).setPreparePosition(String(outcome.position));
        response.setSuccess(new AppendResp.Success().setCurrentRevision(String(outcome.revision)).setPosition(position));
      } else {
        const wrong = new AppendResp.WrongExpectedVersion();
        if (outcome.current >= 0) wrong.setCurrentRevision(String(outcome.current));
        else wrong.setCurrentNoStream(new shared.Empty());
        if (typeof expected === 'bigint') wrong.setExpectedRevision(String(expected));
        else if (expected === 'no_stream') wrong.setExpectedNoStream(new shared.Empty());
        else if (expected === 'stream_exists') wrong.setExpectedStreamExists(new shared.Empty());
        else wrong.setExpectedAny(new shared.Empty());
        response.setWrongExpectedVersion(wrong);
      }
      done(null, response);
    });
  }

  private read(call: grpc.ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>) {
    const options = call.request.getOptions()!;
    const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
    const count = options.hasSubscription() ? Infinity : Number(options.getCount());
    const keep = filterOf(options);
    let events: StoredEvent[];
    if (options.hasStream()) {
      const stream = options.getStream()!;
      const name = Buffer.from(stream.getStreamIdentifier()!.getStreamName_asU8()).toString();
      const all = this.log.stream(name);
      if (all.length === 0) {
        call.write(new ReadResp().setStreamNotFound(new ReadResp.StreamNotFound().setStreamIdentifier(streamId(name))));
        return call.end();
      }
      const from = stream.hasRevision() ? Number(stream.getRevision()) : stream.hasEnd() ? all.length - 1 : backwards ? all.length - 1 : 0;
      events = backwards ? all.slice(0, from + 1).reverse() : all.slice(from);
    } else {
      const at = options.getAll()!;
      const position = at.hasPosition() ? BigInt(at.getPosition()!.getCommitPosition()) : null;
      const all = this.log.all;
      if (backwards) events = all.filter((event) => position === null || event.position < position).reverse();
      // A read includes the event at the position; a subscription starts strictly after it.
      else if (at.hasEnd()) events = [];
      else events = all.filter((event) => position === null || (options.hasSubscription() ? event.position > position : event.position >= position));
    }
    if (!options.hasSubscription()) {
      for (const event of events.filter(keep).slice(0, count)) call.write(toReadResp(event));
      return call.end();
    }
    this.subscribe(call, events.filter(keep), keep);
  }

  private subscribe(call: grpc.ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>, caughtUp: StoredEvent[], keep: (event: StoredEvent) => boolean) {
    this.calls.add(call);
    call.write(new ReadResp().setConfirmation(new ReadResp.SubscriptionConfirmation().setSubscriptionId(crypto.randomUUID())));
    for (const event of caughtUp) call.write(toReadResp(event));
    call.write(new ReadResp().setCaughtUp(new ReadResp.CaughtUp()));
    const unsubscribe = this.log.onAppended((event) => { if (keep(event)) call.write(toReadResp(event)); });
    const end = () => {
      unsubscribe();
      this.calls.delete(call);
    };
    call.on('cancelled', end);
    call.on('close', end);
    call.on('error', end);
  }
}
