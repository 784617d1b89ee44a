import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { portAggregate, type Port } from './port.ts';

const spec = specOf(portAggregate);
const port: Port = { portId: 'o1', publishedPort: 8080, targetPort: 80, protocol: 'tcp', applicationId: 'a1', createdAt: '2026-01-01T00:00:00.000Z' };
const created = { type: 'PortCreated', data: port } as const;

describe('port decider', () => {
  it('publishes a port the application does not publish yet', () => {
    spec.given([]).when({ type: 'CreatePort', data: { ...port, taken: [{ portId: 'o0', publishedPort: 8080, targetPort: 80, protocol: 'udp' }] } })
      .then([created]);
  });
  it('refuses a second port of one application on the same published port and protocol, naming publishedPort', () => {
    spec.given([]).when({ type: 'CreatePort', data: { ...port, taken: [{ portId: 'o0', publishedPort: 8080, targetPort: 81, protocol: 'tcp' }] } })
      .thenFails('CONFLICT', 'publishedPort');
  });
  it('lets a port keep its own published port on update', () => {
    spec.given([created])
      .when({ type: 'UpdatePort', data: { portId: 'o1', publishedPort: 8080, targetPort: 81, protocol: 'tcp', taken: [{ portId: 'o1', publishedPort: 8080, targetPort: 80, protocol: 'tcp' }] } })
      .then([{ type: 'PortUpdated', data: { portId: 'o1', targetPort: 81 } }]);
  });
  it('refuses to move a port onto a sibling', () => {
    spec.given([created])
      .when({ type: 'UpdatePort', data: { portId: 'o1', publishedPort: 9090, targetPort: 80, protocol: 'tcp', taken: [{ portId: 'o2', publishedPort: 9090, targetPort: 81, protocol: 'tcp' }] } })
      .thenFails('CONFLICT', 'publishedPort');
  });
  it('refuses a second port of one application on the same targetPort and protocol, naming targetPort', () => {
    spec.given([]).when({ type: 'CreatePort', data: { ...port, taken: [{ portId: 'o0', publishedPort: 9090, targetPort: 80, protocol: 'tcp' }] } })
      .thenFails('CONFLICT', 'targetPort');
    spec.given([]).when({ type: 'CreatePort', data: { ...port, taken: [{ portId: 'o0', publishedPort: 9090, targetPort: 80, protocol: 'udp' }] } })
      .then([created]);
  });
  it('removes a port once, then answers NOT_FOUND naming portId', () => {
    spec.given([created]).when({ type: 'RemovePort', data: { portId: 'o1' } }).then([{ type: 'PortRemoved', data: { portId: 'o1' } }]);
    spec.given([created, { type: 'PortRemoved', data: { portId: 'o1' } }]).when({ type: 'RemovePort', data: { portId: 'o1' } })
      .thenFails('NOT_FOUND', 'portId');
  });
});
