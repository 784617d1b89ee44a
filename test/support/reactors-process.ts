// A reactors process for the separate-process tests: the real reactors role on the configured bus
// and data folder (BERTH_* variables), with the engine work replaced by the double, which finishes
// a deployment after 300 ms, or never for an application whose name contains "hang".
import { startReactors } from '@berth/reactors/role';
import type { DeploymentWork } from '@berth/reactors/deployer/work';
import { configFrom } from '@berth/shared/runtime/config';
import { openInfrastructure } from '@berth/shared/runtime/infrastructure';

const infra = await openInfrastructure(configFrom({ ...process.env, BERTH_ROLES: 'reactors' }));
const run = (work: DeploymentWork) => new Promise<{ image: string; revision: null }>((resolve, reject) => {
  work.log(`building ${work.application.appName} in process ${process.pid}`);
  work.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  if (!work.application.name.includes('hang')) setTimeout(() => resolve({ image: `${work.application.appName}:${work.deploymentId}`, revision: null }), 300);
});
const done = async () => {};
await startReactors(infra, { run, actions: { start: done, stop: done, reload: done, remove: done } });
process.send?.('ready');
