// A port changed while its application's rollout records what the service now publishes: the API
// reads the application's published ports, the rollout records its own (letting go of the old ones
// the application holds), then the API hands the old host port to the application. Before, nothing
// let it go after that: the host port stayed held until the application was deleted.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Context } from '@berth/command-api/context';
import { letGoOfPortName } from '@berth/command-api/handlers/port-claims';
import { holderOf } from '@berth/command-api/handlers/reservations';
import { recordPublishedPorts } from '@berth/reactors/deployer/published-ports';
import { reporter } from '@berth/reactors/runtime/report';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import { startBerth } from '../support/berth.ts';
import { freePort } from '../support/http.ts';

it('lets go of a host port handed to the application after a rollout recorded that it no longer publishes it', async () => {
  const berth = await startBerth();
  try {
    const infra = berth.berth.infrastructure;
    const report = reporter(infra);
    const { projectId } = await berth.ok('project.create', { name: 'race' });
    const { applicationId } = await berth.ok('application.create', { name: 'racing', projectId });
    const other = (await berth.ok('application.create', { name: 'other', projectId })).applicationId;
    const [x, y] = [`${await freePort()}/tcp`, `${await freePort()}/tcp`];
    const { portId } = await berth.ok('port.create', { applicationId, publishedPort: Number.parseInt(x, 10), targetPort: 80 });
    await recordPublishedPorts(report, infra.readStore, applicationId, 'd1', [x], null);
    // The port moves to y: y is claimed for it, then x let go, the rollout of y recorded as the update reads the application.
    const ctx = new Context(infra, null, 'race');
    const yKey = reservationKey('hostPort', y);
    await ctx.execute(reservationAggregate, yKey, { type: 'Reserve', data: { key: yKey, owner: portId, field: 'publishedPort' } });
    const load = ctx.load.bind(ctx);
    let rolledOut = false;
    Object.assign(ctx, {
      load: async (...args: Parameters<typeof load>) => {
        const read = await load(...args);
        if (args[0].name === applicationAggregate.name && !rolledOut) {
          rolledOut = true;
          await recordPublishedPorts(report, infra.readStore, applicationId, 'd2', [y], null);
        }
        return read;
      },
    });
    await letGoOfPortName(ctx, x, portId, applicationId);
    assert.equal(await holderOf(new Context(infra, null, 'read'), 'hostPort', x), null);
    assert.equal((await berth.call('port.create', { applicationId: other, publishedPort: Number.parseInt(x, 10), targetPort: 80 })).status, 200);
  } finally {
    await berth.stop();
  }
});
