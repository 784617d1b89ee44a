// The deployer's figures on the real engine, each beside the same engine operation done directly:
// - overhead: a deployment of an image (the deployment work, as the queue runs it) until its new
//   task runs, minus writing the same spec and waiting for its task directly; median of 10;
// - parallelism: 10 new services deployed at once against one alone.
// Targets (issue 7): overhead ≤ 300 ms; 10 at once ≤ 1.5 × one.
import type { ServiceSpec } from '@berth/shared/ports/container-engine';
import { TEST_IMAGE, engine, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';

interface Row { figure: string; value: string; target: string; met: string; ratio: string }
const ROUNDS = 10;
const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const met = (ok: boolean) => (ok ? 'yes' : 'NO');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Writes the spec (rolling the tasks) and waits for a task of it to run: the bare engine's time. */
async function direct(spec: ServiceSpec): Promise<number> {
  const started = performance.now();
  const info = await engine.upsertService(spec);
  const forceUpdate = info.spec.TaskTemplate.ForceUpdate ?? 0;
  for (;;) {
    const tasks = await engine.listTasks(spec.Name);
    if (tasks.some((task) => task.forceUpdate === forceUpdate && task.state === 'running' && task.desiredState === 'running')) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

async function timed(run: () => Promise<{ error: Error | null }>): Promise<number> {
  const started = performance.now();
  const { error } = await run();
  if (error) throw error;
  return performance.now() - started;
}

export async function benchDeploy(): Promise<Row[]> {
  console.log(`- deploy: ${ROUNDS} deploys of one image, through the deployment work and directly on the engine`);
  const d = deployer();
  const app = testApplication({ sourceType: 'container', containerImage: TEST_IMAGE });
  const bareName = uniqueName('berth-bench-bare');
  const bare: ServiceSpec = { Name: bareName, TaskTemplate: { ContainerSpec: { Image: TEST_IMAGE } }, Mode: { Replicated: { Replicas: 1 } } };
  const created: string[] = [app.appName, bareName];
  try {
    await timed(() => deploy(d, app));
    await direct(bare);
    const overheads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const berth = await timed(() => deploy(d, app));
      overheads.push(berth - await direct(bare));
    }
    const overhead = median(overheads);

    console.log('- deploy: one new service, then 10 new services at once');
    const one = testApplication({ sourceType: 'container', containerImage: TEST_IMAGE });
    const ten = Array.from({ length: 10 }, () => testApplication({ sourceType: 'container', containerImage: TEST_IMAGE }));
    created.push(one.appName, ...ten.map((each) => each.appName));
    const alone = await timed(() => deploy(d, one));
    const together = await timed(async () => {
      const results = await Promise.all(ten.map((each) => deploy(d, each)));
      return { error: results.find((result) => result.error)?.error ?? null };
    });
    // The engine's own ceiling: the same ten creations done directly.
    const bareSpecs = Array.from({ length: 11 }, () => ({ ...bare, Name: uniqueName('berth-bench-bare') }));
    created.push(...bareSpecs.map((spec) => spec.Name));
    const bareAlone = await direct(bareSpecs[0]!);
    const bareTogether = Math.max(...await Promise.all(bareSpecs.slice(1).map(direct)));
    return [
      { figure: 'deploy overhead over the engine, median of 10 (ms)', value: fmt(overhead), target: '≤ 300', met: met(overhead <= 300), ratio: '' },
      { figure: '10 services at once / one alone (ms)', value: `${fmt(together)} / ${fmt(alone)}`, target: '≤ 1.5×', met: met(together <= 1.5 * alone), ratio: `×${fmt(together / alone, 2)}` },
      { figure: '(the engine alone: 10 at once / one, ms)', value: `${fmt(bareTogether)} / ${fmt(bareAlone)}`, target: '', met: '', ratio: `×${fmt(bareTogether / bareAlone, 2)}; Berth ×${fmt(together / bareTogether, 2)} of it` },
    ];
  } finally {
    for (const name of created) {
      await engine.removeService(name);
      for (const tag of await engine.imageTags(`berth/${name}`)) await engine.removeImage(tag);
    }
  }
}

if (process.argv[1]?.endsWith('deploy.ts')) console.table(await benchDeploy());
